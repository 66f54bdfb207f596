// The test stores are copies of a migrated template (test/support/store-template.ts): a copy must
// be what the migrator makes, table by table (columns, keys, indexes, triggers) and in Kysely's
// own record of the migrations applied, or every other suite would test another schema.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { StoreConfig } from "../../src/config/config.js";
import { openStore } from "../../src/store/open.js";
import {
  type TestSchema,
  type TestStore,
  createTestSchema,
  describeEachBackend,
  openTestStore,
} from "../support/backends.js";
import { type SchemaShape, sqliteShape } from "../support/schema-shape.js";
import { postgresShape } from "../support/schema-shape-postgres.js";

async function shapeOf(config: StoreConfig, schema: string | undefined): Promise<SchemaShape> {
  return config.kind === "sqlite" ? sqliteShape(config.file) : postgresShape(config.url, schema ?? "");
}

describeEachBackend("test stores made from the migrated template", (backend) => {
  const work = mkdtempSync(join(tmpdir(), "kairan-template-"));
  let schema: TestSchema | undefined;
  let migrated: StoreConfig;
  let copies: TestStore[] = [];

  before(async () => {
    schema = backend === "postgres" ? await createTestSchema() : undefined;
    migrated = schema ? { kind: "postgres", url: schema.url } : { kind: "sqlite", file: join(work, "migrated.sqlite") };
    const store = await openStore(migrated);
    await store.migrate();
    await store.close();
    // The first may make the template (a fresh run), the second is then a copy for certain.
    copies = [await openTestStore(backend), await openTestStore(backend)];
  });
  after(async () => {
    for (const copy of copies) await copy.close();
    await schema?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it("makes each store what the migrator makes, and records the same migrations", async () => {
    const expected = await shapeOf(migrated, schema?.name);
    assert.ok(Object.keys(expected.tables).length > 50, "the migrator made the schema");
    for (const copy of copies) {
      const config = copy.storeConfig;
      const name =
        config.kind === "postgres" ? new URL(config.url).searchParams.get("options")?.split("=")[1] : undefined;
      assert.deepEqual(await shapeOf(config, name), expected);
    }
  });

  it("leaves nothing to migrate, and the copies share no rows", async () => {
    const [first, second] = copies;
    assert.ok(first && second);
    await first.store.migrate();
    assert.equal(await first.store.isEmpty(), true);
    await first.store.transaction((tx) =>
      tx.users.insert({
        name: "Only here",
        email: "only@example.com",
        familyKana: "",
        givenKana: "",
        passwordHash: "x",
        createdAt: 1,
      }),
    );
    assert.equal(await first.store.isEmpty(), false);
    assert.equal(await second.store.isEmpty(), true, "a write to one copy is not in another");
  });
});
