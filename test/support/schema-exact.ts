// A database's schema exactly as the engine keeps it, to tell whether two databases were made by
// the same migrations: SQLite's own record of every table, index and trigger (the SQL text it was
// created with), PostgreSQL's catalogs (columns, constraints, indexes, triggers, functions,
// sequences) with the schema's name taken out.
import SQLite from "better-sqlite3";
import pg from "pg";

/** One line per schema object, sorted; equal lists mean equal schemas. */
export type ExactSchema = readonly string[];

/** Every row of sqlite_master: type, name, table and the SQL text, exactly. */
export function exactSqliteSchema(file: string): ExactSchema {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("select type, name, tbl_name, sql from sqlite_master order by type, name").all() as {
      type: string;
      name: string;
      tbl_name: string;
      sql: string | null;
    }[];
    return rows.map((row) => JSON.stringify([row.type, row.name, row.tbl_name, row.sql]));
  } finally {
    db.close();
  }
}

/** The catalog entries of one PostgreSQL schema, with its name written `<schema>`. */
export const POSTGRES_CATALOG_QUERIES: Readonly<Record<string, string>> = {
  table: `select table_name, table_type from information_schema.tables where table_schema = $1`,
  column: `select table_name, ordinal_position, column_name, data_type, character_maximum_length, numeric_precision,
      is_nullable, column_default, is_identity, identity_generation, identity_start, identity_increment,
      identity_maximum, identity_minimum, identity_cycle, collation_name
    from information_schema.columns where table_schema = $1`,
  constraint: `select r.relname, c.conname, c.contype, c.condeferrable, c.convalidated, pg_get_constraintdef(c.oid)
    from pg_constraint c join pg_class r on r.oid = c.conrelid join pg_namespace n on n.oid = r.relnamespace
    where n.nspname = $1`,
  index: `select tablename, indexname, indexdef from pg_indexes where schemaname = $1`,
  trigger: `select r.relname, t.tgname, t.tgenabled, pg_get_triggerdef(t.oid)
    from pg_trigger t join pg_class r on r.oid = t.tgrelid join pg_namespace n on n.oid = r.relnamespace
    where n.nspname = $1 and not t.tgisinternal`,
  function: `select p.proname, pg_get_function_identity_arguments(p.oid), pg_get_functiondef(p.oid)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
  sequence: `select sequencename, data_type, start_value, min_value, max_value, increment_by, cycle, cache_size
    from pg_sequences where schemaname = $1`,
};

/** Every catalog entry of the schema, one line each (kind first), the schema's name replaced. */
export async function exactPostgresSchema(url: string, schema: string): Promise<ExactSchema> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const lines: string[] = [];
    for (const [kind, text] of Object.entries(POSTGRES_CATALOG_QUERIES)) {
      const { rows } = await client.query({ text, values: [schema], rowMode: "array" });
      for (const row of rows as unknown[][])
        lines.push(
          JSON.stringify([kind, ...row])
            .split(schema)
            .join("<schema>"),
        );
    }
    return lines.sort();
  } finally {
    await client.end();
  }
}
