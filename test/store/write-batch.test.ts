// SQLite group commit (src/store/sqlite/write-batch.ts): transactions that arrive together share
// one commit, each in its own savepoint; one that fails changes nothing and the others commit;
// every caller is answered only once its writes are committed (visible to another connection).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/store/schema.js";
import { inTransactionOf, openSqliteDatabase, openSqliteStore } from "../../src/store/sqlite/open.js";
import { WriteBatcher } from "../../src/store/sqlite/write-batch.js";

const T0 = 1_700_000_000_000;

// engines: sqlite only, because the write batch is SQLite's (src/store/sqlite/write-batch.ts);
// PostgreSQL runs each transaction on its own connection.
describe("SQLite write batches", () => {
  let dir: string;
  let db: Kysely<Database>;
  let observer: Kysely<Database>;
  let batcher: WriteBatcher;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "kairan-batch-"));
    const file = join(dir, "kairan.sqlite");
    const store = openSqliteStore(file);
    await store.migrate();
    await store.close();
    db = openSqliteDatabase(file);
    observer = openSqliteDatabase(file);
    batcher = new WriteBatcher(db, inTransactionOf(db));
  });
  after(async () => {
    await db.destroy();
    await observer.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const addUser = (trx: Kysely<Database>, name: string) =>
    trx
      .insertInto("users")
      .values({
        name,
        email: `${name}@example.com`,
        password_hash: "x",
        family_kana: "",
        given_kana: "",
        created_at: T0,
      })
      .execute();
  const names = async () =>
    (await observer.selectFrom("users").select("name").orderBy("name").execute()).map((row) => row.name);

  it("answers each caller after the shared commit, with its own result or error", async () => {
    let transactions = 0;
    const original = db.transaction.bind(db);
    db.transaction = () => {
      transactions += 1;
      return original();
    };
    const seenAtAnswer: string[][] = [];
    const write = (name: string, fail = false) =>
      batcher.run(async (trx) => {
        await addUser(trx, name);
        if (fail) throw new Error(`refused ${name}`);
        return name;
      });
    const results = await Promise.allSettled(
      ["a1", "a2", "a3", "a4"].map((name, index) =>
        write(name, index === 2).then(async (value) => (seenAtAnswer.push(await names()), value)),
      ),
    );
    db.transaction = original;
    assert.deepEqual(
      results.map((result) => (result.status === "fulfilled" ? result.value : (result.reason as Error).message)),
      ["a1", "a2", "refused a3", "a4"],
    );
    assert.equal(transactions, 1, "the four arrived together: one transaction, one commit");
    assert.deepEqual(await names(), ["a1", "a2", "a4"], "the failed one rolled back to its savepoint alone");
    for (const seen of seenAtAnswer) assert.deepEqual(seen, ["a1", "a2", "a4"], "answered only once committed");
  });

  it("runs transactions queued while a batch runs in the next one", async () => {
    const first = batcher.run(async (trx) => {
      await addUser(trx, "b1");
      // A caller's follow-up transaction, asked for while the batch runs.
      void batcher.run((inner) => addUser(inner, "b2"));
    });
    await first;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok((await names()).includes("b2"));
  });

  it("fails every caller of a batch whose commit fails, and commits nothing of it", async () => {
    const results = await Promise.allSettled([
      batcher.run((trx) => addUser(trx, "c1")),
      // Deferred foreign keys fail at commit, not at the statement: the whole batch fails.
      batcher.run(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await sql`insert into topics (group_id, title, body, author_id, published_at, updated_at) values (999999, 't', '', 999999, 0, 0)`.execute(
          trx,
        );
      }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ["rejected", "rejected"],
    );
    assert.ok(!(await names()).includes("c1"));
  });
});
