// The portable archive names its columns table by table (src/domain/archive.ts): a migration that
// adds a column to an archived table must add it there too, or every archive silently drops it.
// This test lists each archived table's columns as the migrated schema has them and fails on any
// column the archive neither writes nor leaves out on purpose.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ACCOUNT_SPEC, TABLE_SPECS } from "../../src/domain/archive.js";
import { type TestStore, openTestStore } from "../support/backends.js";
import { sqliteShape } from "../support/schema-shape.js";

/** Columns the archive leaves out on purpose: secrets, and what an imported account must not keep. */
const LEFT_OUT: Readonly<Record<string, readonly string[]>> = {
  memberships: ["invite_token_hash"],
  users: ["password_hash", "disabled_at", "site_admin", "placeholder_at"],
};

// engines: sqlite only, because it reads the migrated schema from the SQLite file; test/store/schema-parity.test.ts keeps PostgreSQL's the same.
describe("the archive names every column of the tables it archives", () => {
  let test: TestStore;
  before(async () => {
    test = await openTestStore("sqlite");
  });
  after(() => test.close());

  it("writes each column, or leaves it out for a stated reason", () => {
    const shape = sqliteShape(join(test.dataDir, "kairan.sqlite"));
    const specs = [...Object.entries(TABLE_SPECS), ["users", ACCOUNT_SPEC] as const];
    for (const [table, spec] of specs) {
      const columns = shape.tables[table]?.columns.map((column) => column.name);
      assert.ok(columns, `${table} is a table of the schema`);
      const unnamed = columns.filter((column) => !spec.columns.includes(column));
      assert.deepEqual(unnamed, LEFT_OUT[table] ?? [], `${table}: columns the archive neither writes nor leaves out`);
      const unknown = spec.columns.filter((column) => !columns.includes(column));
      assert.deepEqual(unknown, [], `${table}: columns the archive names that the table has not`);
    }
  });
});
