// Compiled hot queries (src/store/queries/prepared.ts) on every engine: each call runs with its
// own values, in every place a value appears, and a value that is not a parameter is refused.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Kysely } from "kysely";
import { prepared, sharingTemplatesOf } from "../../src/store/queries/prepared.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

const T0 = 1_700_000_000_000;

describeEachBackend("prepared queries", (backend) => {
  let opened: TestStore;
  let db: Kysely<Database>;
  before(async () => {
    opened = await openTestStore(backend);
    const config = opened.storeConfig;
    db = config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    for (const name of ["Ann", "Bob", "Cy"]) {
      await db
        .insertInto("users")
        .values({
          name,
          email: `${name.toLowerCase()}@example.com`,
          password_hash: "x",
          family_kana: "",
          given_kana: "",
          created_at: T0,
        })
        .execute();
    }
  });
  after(async () => {
    await db.destroy();
    await opened.close();
  });

  const byNames = prepared(
    ["first", "second", "limit"],
    (handle, values: { first: string; second: string; limit: number }) =>
      handle
        .selectFrom("users")
        .select("name")
        .where("name", "in", [values.first, values.second])
        .orderBy("name")
        .limit(values.limit),
  );

  it("runs each call with its own values, compiled once per handle", async () => {
    assert.deepEqual(await byNames(db, { first: "Ann", second: "Cy", limit: 5 }), [{ name: "Ann" }, { name: "Cy" }]);
    assert.deepEqual(await byNames(db, { first: "Bob", second: "Cy", limit: 1 }), [{ name: "Bob" }]);
    assert.deepEqual(await byNames(db, { first: "Nobody", second: "Else", limit: 5 }), []);
  });

  it("puts a value used twice in both places", async () => {
    const either = prepared(["name"], (handle, values: { name: string }) =>
      handle
        .selectFrom("users")
        .select("email")
        .where((eb) => eb.or([eb("name", "=", values.name), eb("email", "=", values.name)])),
    );
    assert.deepEqual(await either(db, { name: "Bob" }), [{ email: "bob@example.com" }]);
    assert.deepEqual(await either(db, { name: "cy@example.com" }), [{ email: "cy@example.com" }]);
  });

  it("works inside a transaction's own handle", async () => {
    const rows = await db.transaction().execute((trx) => byNames(trx, { first: "Ann", second: "Bob", limit: 5 }));
    assert.deepEqual(rows, [{ name: "Ann" }, { name: "Bob" }]);
  });

  it("compiles once for a root handle and the transactions declared on it", async () => {
    let builds = 0;
    const named = prepared(["name"], (handle, values: { name: string }) => {
      builds += 1;
      return handle.selectFrom("users").select("email").where("name", "=", values.name);
    });
    assert.deepEqual(await named(db, { name: "Ann" }), [{ email: "ann@example.com" }]);
    for (const name of ["Bob", "Cy"]) {
      const rows = await db.transaction().execute((trx) => named(sharingTemplatesOf(trx, db), { name }));
      assert.deepEqual(rows, [{ email: `${name.toLowerCase()}@example.com` }]);
    }
    assert.equal(builds, 1);
    await db.transaction().execute((trx) => named(trx, { name: "Ann" }));
    assert.equal(builds, 2, "an undeclared transaction handle compiles its own");
  });

  it("refuses a query that does not take a value as a parameter", async () => {
    const frozen = prepared(["name"], (handle, _values: { name: string }) =>
      handle.selectFrom("users").select("name").where("name", "=", "Ann"),
    );
    await assert.rejects(frozen(db, { name: "Bob" }), /does not take name as a parameter/);
  });
});
