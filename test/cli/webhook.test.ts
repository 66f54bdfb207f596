// `kairan webhook add|list|remove|deliveries` against a server's database, on every engine: add
// prints the id and the secret once; list never shows a secret; bad input is one line on standard
// error and exit status 2, changing nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("kairan webhook", (backend) => {
  let server: TestServer;
  const kairan = async (args: readonly string[]) => {
    const where = [
      "--data",
      server.dataDir,
      ...(server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : []),
    ];
    return runKairanHere(["webhook", ...args, ...where, "--log-level", "silent"], {}, "");
  };
  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server?.close());

  it("adds, lists, shows deliveries of and removes a group's webhook", async () => {
    const ann = await server.factories.user();
    const group = await server.factories.group([ann]);
    const added = await kairan([
      "add",
      "--group",
      `1:${group.id}`,
      "--url",
      "https://example.com/hook",
      "--events",
      "topic.created",
    ]);
    assert.equal(added.status, 0, added.stderr);
    const made = JSON.parse(added.stdout) as { id: number; secret: string; events: string[]; group: string };
    assert.match(made.secret, /^whsec_/);
    assert.deepEqual(made.events, ["topic.created"]);
    assert.equal(made.group, `1:${group.id}`);
    const listed = await kairan(["list", "--group", `1:${group.id}`]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(
      (JSON.parse(listed.stdout) as { id: number }[]).map((hook) => hook.id),
      [made.id],
    );
    assert.ok(!listed.stdout.includes(made.secret.slice(6)), "list never shows the secret");
    const log = await kairan(["deliveries", String(made.id)]);
    assert.equal(log.status, 0, log.stderr);
    assert.deepEqual(JSON.parse(log.stdout), []);
    const removed = await kairan(["remove", String(made.id)]);
    assert.equal(removed.status, 0, removed.stderr);
    assert.equal(await server.store.read((tx) => tx.webhooks.find(made.id)), undefined);
  });

  it("refuses bad input with one line and exit status 2", async () => {
    const group = await server.factories.group([await server.factories.user()]);
    for (const args of [
      ["add", "--group", `1:${group.id}`, "--url", "not a url"],
      ["add", "--group", `1:${group.id}`, "--url", "https://example.com/", "--events", "nope"],
      ["add", "--url", "https://example.com/"],
      ["add", "--group", "1:999999", "--url", "https://example.com/"],
      ["remove", "abc"],
      ["deliveries", "999999"],
    ]) {
      const run = await kairan(args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    assert.deepEqual(await server.store.read((tx) => tx.webhooks.list({ groupId: group.id })), []);
  });
});
