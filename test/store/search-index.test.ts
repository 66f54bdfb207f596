// The full-text index follows every write in the writing transaction, on both engines, whoever
// writes (the triggers on SQLite, the GIN index on PostgreSQL): inserts, updates, deletes, the
// trash and a rolled-back transaction.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { parseSearchQuery, type SearchKind } from "../../src/domain/search.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { addTestFile } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("the search index", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  const found = async (text: string, kinds: readonly SearchKind[] = ["BOARD", "COMMENT", "TASK", "CABINET"]) =>
    server.store.read(async (tx) =>
      (
        await tx.search.find(
          { userId: alice.id, query: parseSearchQuery(text), kinds, groupId: null },
          { offset: 0, limit: 100 },
        )
      ).hits.map((hit) => `${hit.kind}:${hit.id}`),
    );

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user();
    group = await server.factories.group([alice]);
  });
  after(() => server.close());

  it("follows a topic's edits and deletion", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Quarterly 売上報告", body: "first body" });
    assert.deepEqual(await found("売上報告"), [`BOARD:${topic.id}`]);
    await server.store.transaction((tx) => tx.topics.update(topic.id, { title: "Quarterly", body: "在庫報告", at: 1 }));
    assert.deepEqual(await found("売上報告"), []);
    assert.deepEqual(await found("在庫報告"), [`BOARD:${topic.id}`]);
    await server.store.transaction((tx) => tx.topics.remove(topic.id));
    assert.deepEqual(await found("在庫報告"), []);
  });

  it("follows comments added and deleted", async () => {
    const topic = await server.factories.topic(group, alice);
    const comment = await server.factories.comment(topic, alice, { body: "a marmalade comment" });
    assert.deepEqual(await found("marmalade"), [`COMMENT:${comment.id}`]);
    await server.store.transaction((tx) => tx.comments.remove(comment.id));
    assert.deepEqual(await found("marmalade"), []);
  });

  it("follows a task's changes and its trash", async () => {
    const task = await server.factories.task(group, alice, { title: "order pumpkins" });
    assert.deepEqual(await found("pumpkins"), [`TASK:${task.id}`]);
    await server.store.transaction((tx) => tx.tasks.update(task.id, { body: "and turnips", at: 2 }));
    assert.deepEqual(await found("turnips"), [`TASK:${task.id}`]);
    await server.store.transaction((tx) => tx.tasks.update(task.id, { trashed: true, at: 3 }));
    assert.deepEqual(await found("pumpkins"), []);
  });

  it("follows a shared file into the trash", async () => {
    const file = await addTestFile(server, group, alice, {
      fileName: "walrus.csv",
      bytes: Buffer.from("a,b\nwalrus,1"),
    });
    assert.deepEqual(await found("walrus"), [`CABINET:${file.id}`]);
    await server.store.transaction((tx) => tx.files.update(file.id, { trashed: true, at: 4 }));
    assert.deepEqual(await found("walrus"), []);
  });

  it("keeps nothing of a transaction that rolled back", async () => {
    await assert.rejects(
      server.store.transaction(async (tx) => {
        await tx.topics.insert({
          groupId: group.id,
          title: "never committed xylophone",
          body: "",
          authorId: alice.id,
          folderId: null,
          allowEdit: false,
          fastNotify: false,
          trashed: false,
          at: 5,
        });
        assert.equal(
          (
            await tx.search.find(
              { userId: alice.id, query: parseSearchQuery("xylophone"), kinds: ["BOARD"], groupId: null },
              { offset: 0, limit: 1 },
            )
          ).total,
          1,
        );
        throw new Error("roll back");
      }),
      /roll back/,
    );
    assert.deepEqual(await found("xylophone"), []);
  });
});
