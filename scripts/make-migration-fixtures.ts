// Makes test/fixtures/migrations/: a SQLite database and a PostgreSQL schema as an earlier Kairan
// made them (its migrations, its demo seed, a few rows of every other kind), written out as SQL
// scripts that test/store/migrate-on.test.ts restores into fresh databases and migrates with the
// current code. Run once per release whose schema the tests should keep migrating from:
//
//   git worktree add /tmp/kairan-old <commit>            (outside this checkout)
//   ln -s "$PWD/node_modules" /tmp/kairan-old/node_modules
//   KAIRAN_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
//     node --import tsx scripts/make-migration-fixtures.ts /tmp/kairan-old <name>
//
// It runs the earlier code's own `kairan seed` (loaded from that checkout) on both engines, then
// EXTRA_ROWS below, then dumps: SQLite through better-sqlite3 (tables, rows, then indexes and
// triggers, so that restoring moves no change version), PostgreSQL with pg_dump (which must be
// installed where the fixtures are made, not where the tests run), the schema's name taken out so
// that the script restores into any schema. Kysely's own tables are included: they record which
// migrations ran.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import SQLite from "better-sqlite3";
import pg from "pg";
import { withSearchPath } from "../test/support/backends.js";

/** Rows the demo seed does not make, written as the earlier code wrote them (ids looked up). */
const EXTRA_ROWS = [
  `insert into likes (user_id, item_kind, item_id, group_id, created_at)
    select u.id, 'BOARD', t.id, t.group_id, 1767225600000 from users u, topics t
    where u.email = 'bob@example.com' and t.id = (select min(id) from topics)`,
  `insert into favorites (user_id, item_kind, item_id, group_id, created_at)
    select u.id, 'BOARD', t.id, t.group_id, 1767225600000 from users u, topics t
    where u.email = 'alice@example.com' and t.id = (select min(id) from topics)`,
  `insert into comment_reads (user_id, parent_kind, parent_id, confirmed_at)
    select u.id, 'BOARD', t.id, 1767225600000 from users u, topics t
    where u.email = 'bob@example.com' and t.id = (select min(id) from topics)`,
  `insert into like_notifications (user_id, group_id, item_kind, item_id, comment_number, comment_id, created_at, updated_at)
    select c.author_id, c.group_id, c.parent_kind, c.parent_id, c.number, c.id, 1767225600000, 1767225600000
    from comments c where c.id = (select min(id) from comments)`,
  `update notifications set confirmed = 1, last_access_at = 1767225700000 where id = (select min(id) from notifications)`,
  // The last notification deleted: its id is never handed out again.
  `delete from notifications where id = (select max(id) from notifications)`,
  `insert into topic_leases (topic_id, user_id, since, until)
    select t.id, t.author_id, 1767225600000, 1767225900000 from topics t where t.id = (select min(id) from topics)`,
  `insert into sessions (token_hash, user_id, csrf, created_at, expires_at)
    select 'fixture-session-hash', u.id, 'fixture-csrf', 1767225600000, 4102444800000 from users u
    where u.email = 'alice@example.com'`,
  `insert into oauth_nonces (consumer_key, token, nonce, timestamp, expires_at)
    values ('demo-key', 'alice-demo-token', 'fixture-nonce', 1767225600, 1767226200000)`,
  `insert into oauth_temporary_credentials (token_hash, secret, app_id, callback, csrf, status, created_at, expires_at)
    select 'fixture-request-hash', 'fixture-request-secret', a.id, 'oob', 'fixture-csrf', 'pending', 1767225600000,
      1767226200000 from applications a where a.consumer_key = 'demo-key'`,
  `insert into login_failures (scope, subject, failures, window_start) values ('account', 'bob@example.com', 2, 1767225600000)`,
];

const [root, name] = process.argv.slice(2);
const base = process.env.KAIRAN_TEST_DATABASE_URL;
if (!root || !name || !base) {
  console.error("usage: KAIRAN_TEST_DATABASE_URL=... make-migration-fixtures.ts EARLIER_CHECKOUT NAME");
  process.exit(2);
}
const earlier = resolve(root);
const cli = (await import(pathToFileURL(join(earlier, "src/cli/main.ts")).href)) as {
  runCli?(args: readonly string[], streams: object): Promise<number>;
  /** Before runCli: the command line set process.exitCode itself. */
  main?(args: readonly string[]): Promise<void>;
};
/** `kairan ARGS` of the earlier checkout, in this process; a failure ends the script. */
async function main(args: readonly string[]): Promise<void> {
  let code = 0;
  if (cli.runCli) code = await cli.runCli(args, { stdout: process.stdout, stderr: process.stderr, env: process.env });
  else await cli.main?.(args);
  if (code !== 0 || (process.exitCode ?? 0) !== 0) throw new Error(`kairan ${args.join(" ")} exited with ${code}`);
}
const seedFile = join(earlier, "seeds/demo.json");
const out = new URL("../test/fixtures/migrations/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const header = `-- Made by scripts/make-migration-fixtures.ts from Kairan ${name}: its migrations, its demo seed, extra rows.\n`;

const work = mkdtempSync(join(tmpdir(), "kairan-fixtures-"));
try {
  await main(["seed", seedFile, "--data", work]);
  const file = join(work, "kairan.sqlite");
  const db = new SQLite(file);
  for (const statement of EXTRA_ROWS) db.exec(statement);
  writeFileSync(join(out, `${name}.sqlite.sql`), header + dumpSqlite(db));
  db.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}

// A fixed name: it appears in pg_dump's comments, which then stay the same from one run to the next.
const schema = "kairan_fixture";
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`drop schema if exists ${schema} cascade`);
await admin.query(`create schema ${schema}`);
try {
  const url = withSearchPath(base, schema);
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-fixtures-"));
  await main(["seed", seedFile, "--data", dataDir, "--database", url]);
  rmSync(dataDir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const statement of EXTRA_ROWS) await client.query(statement);
  await client.end();
  const dump = execFileSync("pg_dump", ["--schema", schema, "--no-owner", "--no-privileges", "--inserts", base], {
    encoding: "utf8",
  });
  writeFileSync(join(out, `${name}.postgres.sql`), header + schemaNeutral(dump, schema));
} finally {
  await admin.query(`drop schema ${schema} cascade`);
  await admin.end();
}

/** Tables, their rows (and the AUTOINCREMENT counters), then indexes and triggers, as SQLite keeps them. */
function dumpSqlite(db: SQLite.Database): string {
  const objects = db
    .prepare("select type, name, sql from sqlite_master where sql is not null order by rowid")
    .all() as {
    type: string;
    name: string;
    sql: string;
  }[];
  const tables = objects.filter((o) => o.type === "table" && o.name !== "sqlite_sequence");
  const lines = tables.map((t) => `${t.sql};`);
  // Inserting explicit ids fills sqlite_sequence too; its own rows (which remember deleted last ids) replace those.
  const sequences = "sqlite_sequence";
  for (const table of [...tables.map((t) => t.name), sequences]) {
    if (table === sequences) lines.push(`delete from ${sequences};`);
    const rows = db.prepare(`select * from "${table}" order by rowid`).safeIntegers().all() as Record<
      string,
      unknown
    >[];
    for (const row of rows) {
      const columns = Object.keys(row).map((column) => `"${column}"`);
      lines.push(
        `insert into "${table}" (${columns.join(", ")}) values (${Object.values(row).map(literal).join(", ")});`,
      );
    }
  }
  lines.push(...objects.filter((o) => o.type !== "table").map((o) => `${o.sql};`));
  return `${lines.join("\n")}\n`;
}

function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (Buffer.isBuffer(value)) return `x'${value.toString("hex")}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/**
 * pg_dump's script without the schema: no CREATE SCHEMA, no emptied search_path, no psql
 * meta-commands, and no name qualified with it, so that it restores into whatever schema the
 * connection's search_path names.
 */
function schemaNeutral(dump: string, schema: string): string {
  return dump
    .split("\n")
    .filter((line) => !line.startsWith("\\"))
    .filter((line) => !/^CREATE SCHEMA /.test(line))
    .filter((line) => !line.includes("pg_catalog.set_config('search_path'"))
    .join("\n")
    .replace(new RegExp(`\\b${schema}\\.`, "g"), "");
}
