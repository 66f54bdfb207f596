import type { ColumnDefinitionBuilder } from "kysely";

/** The database engines Kairan runs on. */
export type Engine = "sqlite" | "postgres";

/**
 * The column types a migration picks per engine. The migrations are written once with these; only
 * what the engines truly do differently has its own file (0008, 0009).
 */
export interface ColumnTypes {
  /**
   * Ids, references to ids, epoch-millisecond times, byte sizes, versions: 64 bits. SQLite's
   * `integer` holds 64 bits already; PostgreSQL's `integer` holds 32, hence `bigint` (int8, read
   * back as Number by postgres/open.ts).
   */
  readonly int64: "integer" | "bigint";
  /** Flags (0/1), counts, per-group and per-item numbers, pixel sizes: `integer` on both engines. */
  readonly int32: "integer";
  /** Small binary values read whole (a user's picture): SQLite's `blob`, PostgreSQL's `bytea`. */
  readonly bytes: "blob" | "bytea";
  /**
   * The table's own id: a primary key that never hands out a number twice, not even that of a
   * deleted last row (SQLite's AUTOINCREMENT; a PostgreSQL identity column, whose sequence never
   * goes back). Used with `int64`.
   */
  readonly id: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
}

/** The column types of one engine. */
export function columnTypes(engine: Engine): ColumnTypes {
  return engine === "sqlite"
    ? { int64: "integer", int32: "integer", bytes: "blob", id: (column) => column.primaryKey().autoIncrement() }
    : {
        int64: "bigint",
        int32: "integer",
        bytes: "bytea",
        id: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
      };
}
