// How Kairan lays out its SQLite file: new files take 16 KB pages (the notification fan-out costs
// per page it dirties, bench/fanout.ts), files created before keep theirs and keep working, and
// the WAL is checkpointed after the same number of bytes whatever the page size.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase, openSqliteStore } from "../../src/store/sqlite/open.js";

const work = mkdtempSync(join(tmpdir(), "kairan-sqlite-file-"));
after(() => rmSync(work, { recursive: true, force: true }));

async function pragma(db: Kysely<Database>, name: "page_size" | "wal_autocheckpoint"): Promise<number> {
  const { rows } = await sql<Record<string, number>>`${sql.raw(`pragma ${name}`)}`.execute(db);
  return Number(rows[0]?.[name]);
}

/** Opens the file as the server does, migrates it and writes a user (a transaction on the file). */
async function migrateAndWrite(file: string): Promise<void> {
  const store = openSqliteStore(file);
  try {
    await store.migrate();
    await store.transaction((tx) =>
      tx.users.insert({
        name: "Ann",
        email: `ann@${Math.random()}.example`,
        familyKana: "",
        givenKana: "",
        passwordHash: "x",
        createdAt: 1,
      }),
    );
  } finally {
    await store.close();
  }
}

// engines: sqlite only, because it reads the SQLite file's own settings (pragmas, WAL).
describe("SQLite database file", () => {
  it("creates new files with 16 KB pages and checkpoints every 40 MB of WAL (2,560 pages)", async () => {
    const file = join(work, "new", "kairan.sqlite");
    await migrateAndWrite(file);
    const db = openSqliteDatabase(file);
    try {
      assert.equal(await pragma(db, "page_size"), 16384);
      assert.equal(await pragma(db, "wal_autocheckpoint"), 2560);
    } finally {
      await db.destroy();
    }
  });

  it("keeps the page size of a file created before (4 KB), which migrates and works; 40 MB is 10,240 of its pages", async () => {
    const file = join(work, "old.sqlite");
    const old = new SQLite(file);
    old.pragma("journal_mode = WAL");
    old.exec("create table kept (id integer primary key)");
    assert.equal(old.pragma("page_size", { simple: true }), 4096, "SQLite's default, as before 16 KB pages");
    old.close();
    await migrateAndWrite(file);
    const db = openSqliteDatabase(file);
    try {
      assert.equal(await pragma(db, "page_size"), 4096);
      assert.equal(await pragma(db, "wal_autocheckpoint"), 10240);
      assert.equal((await db.selectFrom("users").select("name").execute()).length, 1);
    } finally {
      await db.destroy();
    }
  });
});
