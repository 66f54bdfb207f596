// A fresh test database made from a migrated template instead of migrating each one: about 150 test
// stores are opened per run, and running every migration for each cost most of a second on
// SQLite and several on PostgreSQL. The first store of a run is migrated by the real migrator, and
// what it made is kept in the temporary directory under a hash of the migrations (so a changed
// migration makes a new template): the SQLite file itself, and for PostgreSQL the schema as
// pg_dump writes it (DDL and the rows migrations insert), its name replaced by a placeholder.
// Tests of the migrator itself (a restored older database) never use a template, and without
// pg_dump each PostgreSQL store is migrated as before.
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { openStore } from "../../src/store/open.js";

const MIGRATIONS = fileURLToPath(new URL("../../src/store/migrations/", import.meta.url));
const KYSELY_PACKAGE = fileURLToPath(new URL("../../node_modules/kysely/package.json", import.meta.url));
const PLACEHOLDER = "__kairan_template_schema__";

/** The folder of this version of the migrations' templates. */
const folder = (() => {
  const hash = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS).sort()) hash.update(name).update(readFileSync(join(MIGRATIONS, name)));
  hash.update(readFileSync(KYSELY_PACKAGE));
  return join(tmpdir(), `kairan-test-template-${hash.digest("hex").slice(0, 16)}`);
})();

/** Writes `file` whole or not at all: test files running at once may make the same template. */
function publish(file: string, write: (temp: string) => void): void {
  mkdirSync(folder, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  write(temp);
  renameSync(temp, file);
}

/** Makes `file` a migrated, empty SQLite database: a copy of the template, made first when missing. */
export async function sqliteFromTemplate(file: string): Promise<true> {
  const template = join(folder, "kairan.sqlite");
  if (!existsSync(template)) {
    mkdirSync(folder, { recursive: true });
    const made = join(folder, `made.${process.pid}.${randomBytes(4).toString("hex")}.sqlite`);
    const store = await openStore({ kind: "sqlite", file: made });
    await store.migrate();
    // Closing checkpoints the write-ahead log into the file: the copy needs nothing beside it.
    await store.close();
    renameSync(made, template);
  }
  copyFileSync(template, file);
  return true;
}

/**
 * Fills the empty schema `name` (reached through `url`) from the PostgreSQL template; false when
 * there is none yet (the caller migrates, then `savePostgresTemplate`).
 */
export async function postgresFromTemplate(url: string, name: string): Promise<boolean> {
  const template = join(folder, "postgres.sql");
  if (!existsSync(template)) return false;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(readFileSync(template, "utf8").replaceAll(PLACEHOLDER, name));
  } finally {
    await client.end();
  }
  return true;
}

/** Keeps the freshly migrated schema `name` of the database `databaseUrl` as the template. */
export function savePostgresTemplate(databaseUrl: string, name: string): void {
  const dumped = spawnSync(
    "pg_dump",
    ["--dbname", databaseUrl, "--schema", name, "--no-owner", "--no-privileges", "--inserts"],
    { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  // No pg_dump (or one that cannot read this server): every store is migrated, as before.
  if (dumped.error !== undefined || dumped.status !== 0) return;
  const statements = dumped.stdout
    .split("\n")
    // psql's own commands (\restrict) are no SQL; the schema exists already.
    .filter((line) => !line.startsWith("\\") && line !== `CREATE SCHEMA ${name};`)
    .join("\n")
    .replaceAll(name, PLACEHOLDER);
  publish(join(folder, "postgres.sql"), (temp) => writeFileSync(temp, statements));
}
