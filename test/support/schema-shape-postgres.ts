// The PostgreSQL half of schema-shape.ts: the same shape read from the catalogs of one schema.
import pg from "pg";
import { type ColumnShape, type SchemaShape, type TableShape, indexLine } from "./schema-shape.js";

/** The shape of one PostgreSQL schema. */
export async function postgresShape(url: string, schema: string): Promise<SchemaShape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await readPostgresShape(async (text) => (await client.query({ text, values: [schema] })).rows);
  } finally {
    await client.end();
  }
}

/** Runs one catalog query with the schema's name as $1. */
type CatalogQuery = <T>(text: string) => Promise<T[]>;

const COLUMNS = `select table_name, column_name, data_type, character_maximum_length, is_nullable, column_default, is_identity
  from information_schema.columns where table_schema = $1 order by table_name, ordinal_position`;

const names = (
  keys: string,
  relation: string,
) => `array(select a.attname::text from unnest(c.${keys}) with ordinality k(n, o)
  join pg_attribute a on a.attrelid = c.${relation} and a.attnum = k.n order by k.o)`;

const CONSTRAINTS = `select r.relname as table, c.contype as type, ${names("conkey", "conrelid")} as columns,
    f.relname as ref_table, ${names("confkey", "confrelid")} as ref_columns, c.confdeltype as on_delete,
    pg_get_expr(c.conbin, c.conrelid) as check
  from pg_constraint c join pg_class r on r.oid = c.conrelid join pg_namespace n on n.oid = r.relnamespace
  left join pg_class f on f.oid = c.confrelid
  where n.nspname = $1`;

const INDEXES = `select r.relname as table, i.relname as name, x.indisunique as unique,
    array(select pg_get_indexdef(x.indexrelid, k, true) || case when x.indoption[k - 1] & 1 = 1 then ' desc' else '' end
      from generate_series(1, x.indnkeyatts) k order by k) as columns,
    pg_get_expr(x.indpred, x.indrelid) as predicate, am.amname as method
  from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class r on r.oid = x.indrelid
  join pg_am am on am.oid = i.relam
  join pg_namespace n on n.oid = r.relnamespace
  where n.nspname = $1
    and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid and c.contype in ('p', 'u', 'x'))`;

// The update columns are read once for the schema and joined: a subquery per trigger over
// information_schema's views took minutes once migration 0058 added dozens of triggers.
const TRIGGERS = `select t.trigger_name as name, t.action_timing as timing, t.event_manipulation as event,
    t.event_object_table as table, t.action_orientation as level, coalesce(u.columns, '{}') as columns
  from information_schema.triggers t
  left join (select trigger_name, event_object_table, array_agg(event_object_column::text order by event_object_column::text) as columns
      from information_schema.triggered_update_columns where trigger_schema = $1 group by trigger_name, event_object_table) u
    on u.trigger_name = t.trigger_name and u.event_object_table = t.event_object_table
  where t.trigger_schema = $1`;

const FUNCTIONS = `select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`;

const ON_DELETE: Readonly<Record<string, string>> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  character_maximum_length: number | null;
  is_nullable: "YES" | "NO";
  column_default: string | null;
  is_identity: "YES" | "NO";
}
interface ConstraintRow {
  table: string;
  type: string;
  columns: string[];
  ref_table: string | null;
  ref_columns: string[];
  on_delete: string;
  check: string | null;
}
interface IndexRow {
  table: string;
  name: string;
  unique: boolean;
  columns: string[];
  predicate: string | null;
  method: string;
}
interface TriggerRow {
  name: string;
  timing: string;
  event: string;
  table: string;
  level: string;
  columns: string[];
}

/** The shape of the schema the queries run in. */
async function readPostgresShape(query: CatalogQuery): Promise<SchemaShape> {
  const columns = await query<ColumnRow>(COLUMNS);
  const constraints = await query<ConstraintRow>(CONSTRAINTS);
  const everyIndex = await query<IndexRow>(INDEXES);
  // GIN indexes are the full-text index (migration 0014); SQLite has FTS5 tables instead.
  const indexes = everyIndex.filter((i) => i.method !== "gin");
  const tables: Record<string, TableShape> = {};
  for (const table of [...new Set(columns.map((c) => c.table_name))].sort()) {
    const own = constraints.filter((c) => c.table === table);
    tables[table] = {
      columns: columns.filter((c) => c.table_name === table).map(columnShape),
      primaryKey: own.find((c) => c.type === "p")?.columns ?? [],
      uniques: own
        .filter((c) => c.type === "u")
        .map((c) => c.columns.join(", "))
        .sort(),
      foreignKeys: own
        .filter((c) => c.type === "f")
        .map(
          (c) =>
            `${c.columns.join(", ")} -> ${c.ref_table}(${c.ref_columns.join(", ")}) on delete ${ON_DELETE[c.on_delete]}`,
        )
        .sort(),
      indexes: indexes
        .filter((i) => i.table === table)
        .map((i) => indexLine(i.name, i.unique, i.columns.map(unquote), i.predicate ?? ""))
        .sort(),
      checks: own
        .filter((c) => c.type === "c")
        .map((c) => c.check ?? "")
        .sort(),
    };
  }
  const triggers = await query<TriggerRow>(TRIGGERS);
  const functions = await query<{ name: string }>(FUNCTIONS);
  return {
    tables,
    triggers: triggers.map(triggerLine).sort(),
    engineOnly: {
      statementTriggers: triggers
        .filter((t) => t.level === "STATEMENT")
        .map((t) => t.name)
        .sort(),
      functions: functions.map((f) => f.name).sort(),
      onConflictTables: [],
      searchIndex: everyIndex
        .filter((i) => i.method === "gin")
        .map((i) => i.name)
        .sort(),
    },
  };
}

function columnShape(row: ColumnRow): ColumnShape {
  const type = row.data_type === "character varying" ? `varchar(${row.character_maximum_length ?? ""})` : row.data_type;
  return {
    name: row.column_name,
    type,
    notNull: row.is_nullable === "NO",
    // `''::text` is PostgreSQL's way of writing SQLite's `''`.
    default: row.column_default?.replace(/::(text|character varying)$/, "") ?? null,
    identity: row.is_identity === "YES",
  };
}

function triggerLine(row: TriggerRow): string {
  const columns = row.columns.length > 0 ? ` of ${row.columns.join(", ")}` : "";
  return `${row.name}: ${row.timing} ${row.event}${columns} on ${row.table}`;
}

function unquote(column: string): string {
  return column.replace(/"/g, "");
}
