// `kairan group archive|restore|delete ID` against a server's database, on every engine: archiving
// refuses the members' writes at once and is audited as the command line; restoring lifts it;
// deleting needs --yes and removes the group with its content and stored bytes; bad input is one
// line on standard error and exit status 2, changing nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("kairan group archive|restore|delete", (backend) => {
  let server: TestServer;
  let ann: TestUser;
  const kairan = async (args: readonly string[]) => {
    // The data directory holds the stored files on both engines: deletion removes them there.
    const where = [
      "--data",
      server.dataDir,
      ...(server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : []),
    ];
    return runKairanHere(["group", ...args, ...where, "--log-level", "silent"], {}, "");
  };
  const audit = () => server.store.read((tx) => tx.auditEvents.list({ limit: 100 }));

  before(async () => {
    server = await startTestServer(backend);
    ann = await server.factories.user({ name: "Ann" });
  });
  after(() => server?.close());

  it("archives a group (its members' writes refused at once) and restores it, audited as the command line", async () => {
    const group = await server.factories.group([ann], { name: "Ops" });
    const archived = await kairan(["archive", `1:${group.id}`]);
    assert.equal(archived.status, 0, archived.stderr);
    assert.deepEqual(JSON.parse(archived.stdout), {
      updated: "group",
      id: `1:${group.id}`,
      name: "Ops",
      archived: true,
      changed: true,
    });
    assert.equal(JSON.parse((await kairan(["archive", `GROUP,1:${group.id}`])).stdout).changed, false);
    const write = await request(`${server.url}/api/board/V2`, {
      token: ann.token,
      body: `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>T</title></entry></feed>`,
    });
    assertError(write, 403, "GROUP_ARCHIVED");
    const listed = JSON.parse((await kairan(["list"])).stdout) as { id: string; archived?: boolean }[];
    assert.equal(listed.find((g) => g.id === `1:${group.id}`)?.archived, true);
    const restored = await kairan(["restore", `1:${group.id}`]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.equal((await server.store.read((tx) => tx.groups.findById(group.id)))?.archivedAt, null);
    const rows = (await audit()).filter((r) => r.target_id === String(group.id));
    for (const action of ["group.archive", "group.restore"]) {
      const row = rows.find((r) => r.action === action);
      assert.ok(row, action);
      assert.equal(row.actor_label, "kairan (command line)");
    }
  });

  it("deletes a group with --yes only, with its content and stored bytes", async () => {
    const group = await server.factories.group([ann], { name: "Gone" });
    const topic = await server.factories.topic(group, ann);
    const file = await addTestFile(server, group, ann);
    const unconfirmed = await kairan(["delete", `1:${group.id}`]);
    assert.equal(unconfirmed.status, 2);
    assert.match(unconfirmed.stderr, /^kairan: .*--yes.*\n$/);
    assert.ok(await server.store.read((tx) => tx.groups.findById(group.id)), "nothing deleted");
    const deleted = await kairan(["delete", `1:${group.id}`, "--yes"]);
    assert.equal(deleted.status, 0, deleted.stderr);
    assert.deepEqual(JSON.parse(deleted.stdout), {
      deleted: "group",
      id: `1:${group.id}`,
      name: "Gone",
      blobsRemoved: 1,
    });
    assert.equal(await server.store.read((tx) => tx.groups.findById(group.id)), undefined);
    assert.equal(await server.store.read((tx) => tx.topics.findById(topic.id)), undefined);
    assert.equal(await server.blobs.open(file.current.blobKey), undefined);
    assert.ok((await audit()).some((r) => r.action === "group.delete" && r.target_id === String(group.id)));
  });

  it("answers bad input in one line with exit status 2", async () => {
    for (const args of [["archive"], ["archive", "x"], ["delete", "1:999999", "--yes"], ["restore", "1:1", "1:2"]]) {
      const run = await kairan(args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr.split("\n").filter(Boolean).length, 1, run.stderr);
    }
  });
});
