// A schema in terms both engines share, to compare a SQLite database with a PostgreSQL one: per
// table its columns (type, nullability, default, identity), primary key, unique constraints,
// foreign keys, indexes and checks, and its triggers' names and events. Column types are kept as
// each engine declares them; the parity test maps one to the other.
import SQLite from "better-sqlite3";

export interface ColumnShape {
  readonly name: string;
  readonly type: string;
  readonly notNull: boolean;
  readonly default: string | null;
  /** A primary key that hands out its own numbers: AUTOINCREMENT, an identity column. */
  readonly identity: boolean;
}

export interface TableShape {
  readonly columns: readonly ColumnShape[];
  readonly primaryKey: readonly string[];
  /** Column lists of unique constraints, sorted. */
  readonly uniques: readonly string[];
  /** `columns -> table(columns) on delete ACTION`, sorted. */
  readonly foreignKeys: readonly string[];
  /** `name: [unique] columns [where predicate]` of indexes made by CREATE INDEX, sorted. */
  readonly indexes: readonly string[];
  /** Check constraints' conditions, sorted. */
  readonly checks: readonly string[];
}

export interface SchemaShape {
  readonly tables: Readonly<Record<string, TableShape>>;
  /** `name: timing event [of columns] on table`, sorted. */
  readonly triggers: readonly string[];
  /** What one engine has and the other has not (the parity test lists what it expects of each). */
  readonly engineOnly: {
    /** Triggers run once per statement rather than per row. */
    readonly statementTriggers: readonly string[];
    /** Functions in the schema. */
    readonly functions: readonly string[];
    /** Tables whose constraints name a conflict resolution (SQLite's `on conflict fail`). */
    readonly onConflictTables: readonly string[];
    /**
     * The full-text index (migration 0014), not in `tables` or `triggers`: SQLite's FTS5 tables,
     * their shadow tables and the triggers that fill them; PostgreSQL's GIN indexes.
     */
    readonly searchIndex: readonly string[];
  };
}

/** What tells an index from a unique constraint on SQLite: how it was made. */
type IndexOrigin = "c" | "u" | "pk";

/** The shape of a SQLite database file (its own bookkeeping tables, sqlite_*, left out). */
export function sqliteShape(file: string): SchemaShape {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const all = <T>(text: string, ...values: unknown[]) => db.prepare(text).all(...values) as T[];
    const tables: Record<string, TableShape> = {};
    const everyTable = all<{ name: string; sql: string }>(
      "select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name",
    );
    const fts = everyTable.filter((t) => /^create virtual table/i.test(t.sql)).map((t) => t.name);
    const ofIndex = (name: string) => fts.some((v) => name === v || name.startsWith(`${v}_`));
    const names = everyTable.filter((t) => !ofIndex(t.name));
    for (const { name, sql } of names) {
      const info = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        "select * from pragma_table_info(?) order by cid",
        name,
      );
      const primaryKey = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const autoincrement = /autoincrement/i.test(sql);
      const indexes = all<{ name: string; unique: number; origin: IndexOrigin; partial: number }>(
        "select * from pragma_index_list(?)",
        name,
      );
      const keyColumns = (index: string) =>
        all<{ name: string; desc: number }>(
          "select name, desc from pragma_index_xinfo(?) where key = 1 order by seqno",
          index,
        ).map((c) => c.name + (c.desc ? " desc" : ""));
      const predicate = (index: string) => {
        const text = all<{ sql: string }>("select sql from sqlite_master where name = ?", index)[0]?.sql ?? "";
        return / where (.*)$/is.exec(text)?.[1]?.trim() ?? "";
      };
      const foreignKeys = all<{ id: number; table: string; from: string; to: string; on_delete: string }>(
        "select * from pragma_foreign_key_list(?) order by id, seq",
        name,
      );
      tables[name] = {
        columns: info.map((c) => ({
          name: c.name,
          type: c.type.toLowerCase(),
          notNull: c.notnull === 1 || c.pk > 0,
          default: c.dflt_value,
          identity: autoincrement && primaryKey.length === 1 && c.pk === 1,
        })),
        primaryKey: primaryKey.map((c) => c.name),
        uniques: indexes
          .filter((i) => i.origin === "u")
          .map((i) => keyColumns(i.name).join(", "))
          .sort(),
        foreignKeys: groupForeignKeys(foreignKeys),
        indexes: indexes
          .filter((i) => i.origin === "c")
          .map((i) => indexLine(i.name, i.unique === 1, keyColumns(i.name), i.partial ? predicate(i.name) : ""))
          .sort(),
        checks: [...sql.matchAll(/\bcheck\s*\((.*?)\)/gis)].map((m) => normalize(m[1] ?? "")).sort(),
      };
    }
    const everyTrigger = all<{ name: string; sql: string }>(
      "select name, sql from sqlite_master where type = 'trigger'",
    );
    const fills = (t: { sql: string }) => fts.some((v) => new RegExp(`insert into ${v}\\b`, "i").test(t.sql));
    const triggers = everyTrigger.filter((t) => !fills(t));
    return {
      tables,
      triggers: triggers.map((t) => sqliteTriggerLine(t.name, t.sql)).sort(),
      // SQLite's triggers all run per row, and it has no functions in the database.
      engineOnly: {
        statementTriggers: [],
        functions: [],
        onConflictTables: names.filter((t) => /\bon\s+conflict\b/i.test(t.sql)).map((t) => t.name),
        searchIndex: [
          ...everyTable.filter((t) => ofIndex(t.name)).map((t) => t.name),
          ...everyTrigger.filter(fills).map((t) => t.name),
        ].sort(),
      },
    };
  } finally {
    db.close();
  }
}

function groupForeignKeys(
  rows: readonly { id: number; table: string; from: string; to: string; on_delete: string }[],
): string[] {
  const byId = new Map<number, typeof rows>();
  for (const row of rows) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
  return [...byId.values()]
    .map((parts) => {
      const first = parts[0]!;
      const from = parts.map((p) => p.from).join(", ");
      const to = parts.map((p) => p.to).join(", ");
      return `${from} -> ${first.table}(${to}) on delete ${first.on_delete.toUpperCase()}`;
    })
    .sort();
}

function sqliteTriggerLine(name: string, sql: string): string {
  const head =
    /create\s+trigger\s+"?(\w+)"?\s+(before|after|instead of)\s+(insert|update|delete)(\s+of\s+(.*?))?\s+on\s+"?(\w+)"?/is.exec(
      sql,
    );
  if (!head) throw new Error(`cannot read trigger ${name}: ${sql.slice(0, 80)}`);
  const columns = head[5]
    ? ` of ${head[5]
        .split(",")
        .map((c) => c.trim())
        .sort()
        .join(", ")}`
    : "";
  return `${name}: ${head[2]!.toUpperCase()} ${head[3]!.toUpperCase()}${columns} on ${head[6]}`;
}

export function indexLine(name: string, unique: boolean, columns: readonly string[], predicate: string): string {
  return `${name}: ${unique ? "unique " : ""}${columns.join(", ")}${predicate ? ` where ${normalize(predicate)}` : ""}`;
}

/** Lower case, single spaces, no parentheses or double quotes: conditions written alike compare equal. */
export function normalize(text: string): string {
  return text.replace(/[()"]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
}
