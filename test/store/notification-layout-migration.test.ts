// Migration 0008 on SQLite: a database that already holds notifications keeps every row, id, the
// id sequence and the page index; afterwards its constraints fail a statement instead of aborting
// it (what spares the fan-out a statement journal), and a transaction is still undone as a whole.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Kysely, Migrator, sql } from "kysely";
import type { Database } from "../../src/store/schema.js";
import { migrationsFor } from "../../src/store/migrations/index.js";
import { openSqliteDatabase, openSqliteStore } from "../../src/store/sqlite/open.js";
import type { Store } from "../../src/store/store.js";

const work = mkdtempSync(join(tmpdir(), "kairan-migration-0008-"));
after(() => rmSync(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;

const BEFORE_0008 = Object.fromEntries(Object.entries(migrationsFor("sqlite")).filter(([name]) => name < "0008"));

/** Notifications as 0005 left them: every column set and unset, a gap, and a deleted last id. */
async function fillBefore0008(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => BEFORE_0008 } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  await sql`insert into users (id, name, email, password_hash, created_at) values (1, 'Ann', 'ann@example.com', 'x', 1), (2, 'Ben', 'ben@example.com', 'x', 1), (3, 'Cy', 'cy@example.com', 'x', 1)`.execute(
    db,
  );
  await sql`insert into groups (id, name, summary, created_at, updated_at) values (1, 'Team', '', 1, 1)`.execute(db);
  await sql`insert into memberships (group_id, user_id, status, manager, notify, created_at, updated_at) values (1, 1, 'JOIN', 1, 1, 1, 1), (1, 2, 'JOIN', 0, 1, 1, 1), (1, 3, 'JOIN', 0, 1, 1, 1)`.execute(
    db,
  );
  await sql`insert into notifications (id, user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments,
      comment_number, comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at) values
    (3, 2, 1, 'BOARD', 10, 1, 'created', 0, 0, null, 0, null, null, 100, 100, null),
    (4, 3, 1, 'BOARD', 10, 2, 'comment', 1, 0, 7, 1, 150, 1, 100, 200, 250),
    (9, 2, 1, 'GROUP', 1, null, 'joined', 0, 2, null, 0, null, null, 300, 300, null),
    (12, 3, 1, 'TASK', 5, 1, 'updated', 0, 0, null, 0, null, null, 400, 400, null)`.execute(db);
  await sql`delete from notifications where id = 12`.execute(db);
}

const rows = async (db: Kysely<Database>): Promise<Row[]> =>
  (await sql<Row>`select * from notifications order by id`.execute(db)).rows;
const sequence = async (db: Kysely<Database>): Promise<unknown> =>
  (await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'notifications'`.execute(db)).rows[0]?.seq;

// engines: sqlite only, because it checks migration 0008 on SQLite's tables (the migrations as a
// whole run on both engines in every store suite).
describe("SQLite migration 0008-notification-layout", () => {
  const file = join(work, "kairan.sqlite");
  let before0008: Row[];
  let store: Store;
  let db: Kysely<Database>;

  before(async () => {
    const old = openSqliteDatabase(file);
    try {
      await fillBefore0008(old);
      before0008 = await rows(old);
      assert.equal(await sequence(old), 12);
    } finally {
      await old.destroy();
    }
    store = openSqliteStore(file);
    await store.migrate();
    db = openSqliteDatabase(file);
  });
  after(async () => {
    await db.destroy();
    await store.close();
  });

  it("keeps every row with its id, and the id sequence past the deleted last row", async () => {
    assert.equal(before0008.length, 3);
    assert.deepEqual(await rows(db), before0008);
    assert.equal(await sequence(db), 12);
    await sql`insert into notifications (user_id, group_id, item_kind, item_id, event, created_at, updated_at) values (1, 1, 'BOARD', 11, 'created', 500, 500)`.execute(
      db,
    );
    const added = await sql<{ id: number }>`select id from notifications where item_id = 11`.execute(db);
    assert.equal(added.rows[0]?.id, 13, "id 12 is never handed out again");
  });

  it("has the same indexes: the unique (kind, item, user) and the page index", async () => {
    const indexes = await sql<{
      name: string;
      unique: number;
    }>`select name, "unique" from pragma_index_list('notifications') order by name`.execute(db);
    assert.deepEqual(
      indexes.rows.map((index) => [index.name, index.unique]),
      [
        ["notifications_user_page", 0],
        ["sqlite_autoindex_notifications_1", 1],
      ],
    );
    const columns = async (index: string) =>
      (await sql<{ name: string }>`select name from pragma_index_info(${index}) order by seqno`.execute(db)).rows.map(
        (column) => column.name,
      );
    assert.deepEqual(await columns("notifications_user_page"), ["user_id", "updated_at", "id", "confirmed"]);
    assert.deepEqual(await columns("sqlite_autoindex_notifications_1"), ["item_kind", "item_id", "user_id"]);
  });

  it("fails, rather than aborts, a statement that breaks a constraint: its earlier rows stay until the transaction is undone", async () => {
    const insertTwo = sql`insert into notifications (user_id, group_id, item_kind, item_id, event, created_at, updated_at)
      values (1, 1, 'BOARD', 20, 'created', 600, 600), (1, 1, 'BOARD', 20, 'created', 600, 600)`;
    await assert.rejects(insertTwo.execute(db), /UNIQUE constraint failed/);
    assert.equal(
      (await sql`select id from notifications where item_id = 20`.execute(db)).rows.length,
      1,
      "FAIL keeps the first row (outside a transaction)",
    );
    const nullEvent = sql`insert into notifications (user_id, group_id, item_kind, item_id, event, created_at, updated_at)
      values (1, 1, 'BOARD', 21, 'created', 600, 600), (2, 1, 'BOARD', 21, null, 600, 600)`;
    // As store.transaction does: the error rolls the transaction back.
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await nullEvent.execute(trx);
      }),
      /NOT NULL constraint failed/,
    );
    assert.equal(
      (await sql`select id from notifications where item_id = 21`.execute(db)).rows.length,
      0,
      "the transaction took the first row back",
    );
  });

  it("fans out on the migrated table: brings back the notifications that exist and creates the missing ones", async () => {
    await store.transaction((tx) =>
      tx.notifications.fanOut({
        item: { kind: "BOARD", groupId: 1, id: 10 },
        actorId: 1,
        cause: { kind: "comment", number: 8 },
        at: 700,
      }),
    );
    const after0008 =
      await sql<Row>`select id, user_id, event, confirmed, unconfirmed_comments, comment_number, comment_deleted, updated_at, last_access_at
      from notifications where item_kind = 'BOARD' and item_id = 10 order by user_id`.execute(db);
    assert.deepEqual(after0008.rows, [
      {
        id: 3,
        user_id: 2,
        event: "comment",
        confirmed: 0,
        unconfirmed_comments: 1,
        comment_number: 8,
        comment_deleted: 0,
        updated_at: 700,
        last_access_at: null,
      },
      {
        id: 4,
        user_id: 3,
        event: "comment",
        confirmed: 0,
        unconfirmed_comments: 1,
        comment_number: 8,
        comment_deleted: 0,
        updated_at: 700,
        last_access_at: 250,
      },
    ]);
    await store.transaction((tx) =>
      tx.notifications.fanOut({
        item: { kind: "BOARD", groupId: 1, id: 10 },
        actorId: 2,
        cause: { kind: "comment", number: 9 },
        at: 800,
      }),
    );
    const mixed =
      await sql<Row>`select user_id, unconfirmed_comments, updated_at from notifications where item_kind = 'BOARD' and item_id = 10 order by user_id`.execute(
        db,
      );
    assert.deepEqual(
      mixed.rows,
      [
        { user_id: 1, unconfirmed_comments: 1, updated_at: 800 },
        { user_id: 2, unconfirmed_comments: 1, updated_at: 700 },
        { user_id: 3, unconfirmed_comments: 2, updated_at: 800 },
      ],
      "the actor's own is left alone, the others' brought back, the author's created",
    );
  });
});
