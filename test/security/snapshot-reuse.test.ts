// The snapshots that prove a refused request changed nothing reuse their rows when the database
// says nothing was written (test/support/snapshot.ts). That shortcut must never hide a write: a
// commit through the server's own connection, of any table, is seen at the next snapshot.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { type Snapshotter, describeChange, openSnapshotter } from "../support/snapshot.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("snapshots that reuse their rows", (backend) => {
  let server: TestServer;
  let snapshots: Snapshotter;
  before(async () => {
    server = await startTestServer(backend);
    // The background senders (mail, webhooks, WebSub) read and write on their own time; this test counts writes exactly.
    await server.app.mailSender.stop();
    await server.app.webhookSender.stop();
    await server.app.websubHub.stop();
    snapshots = openSnapshotter(server);
  });
  after(async () => {
    await snapshots?.close();
    await server?.close();
  });

  it("reuses the rows while nothing is written, and sees every commit, an update of one column included", async () => {
    const first = await snapshots.take();
    const same = await snapshots.take();
    assert.equal(same.tables, first.tables, "nothing written: the same rows");
    const user = await server.factories.user({ name: "Before" });
    const added = await snapshots.take();
    assert.match(describeChange(same, added), /users: \+1 -0/);
    await server.store.transaction((tx) => tx.users.update(user.id, { name: "After" }));
    const updated = await snapshots.take();
    assert.match(describeChange(added, updated), /users: \+1 -1/);
    await assert.rejects(
      server.store.transaction(async (tx) => {
        await tx.users.update(user.id, { name: "Rolled back" });
        throw new Error("undone");
      }),
    );
    assert.equal(describeChange(updated, await snapshots.take()), "", "a rolled-back write changes nothing");
  });
});
