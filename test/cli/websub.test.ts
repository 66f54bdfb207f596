// `kairan websub list|remove` against a server's database, on every engine: list shows a
// subscription without its secret; remove ends it; bad input is one line on standard error and
// exit status 2, changing nothing.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { subscriptionKey } from "../../src/domain/websub.js";
import { describeEachBackend } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("kairan websub", (backend) => {
  let server: TestServer;
  const kairan = async (args: readonly string[]) => {
    const where = [
      "--data",
      server.dataDir,
      ...(server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : []),
    ];
    return runKairanHere(["websub", ...args, ...where, "--log-level", "silent"], {}, "");
  };
  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server?.close());

  it("lists and removes a subscription, never showing its secret; refuses bad input with exit status 2", async () => {
    const ann = await server.factories.user();
    const tokenId = await server.store.read(async (tx) => (await tx.tokens.listLiveOfUser(ann.id))[0]?.id ?? 0);
    const topic = `${server.url}/api/board/V2`;
    const callback = "https://subscriber.example/cb";
    const keyHash = subscriptionKey(topic, callback);
    await server.store.transaction(async (tx) => {
      const at = server.clock.now();
      const job = { kind: "subscribe" as const, userId: ann.id, tokenId, keyHash, topic, callback };
      const id = await tx.websub.enqueue({
        ...job,
        secret: "sealed-secret",
        leaseSeconds: 60,
        contentHash: null,
        body: null,
        at,
      });
      const [row] = await tx.websub.claimDue(at, at + 1000, 1);
      assert.equal(row?.id, id);
      await tx.websub.activate(row, at + 60_000);
      await tx.websub.finish(id);
    });
    const listed = await kairan(["list"]);
    assert.equal(listed.status, 0, listed.stderr);
    const [shown] = JSON.parse(listed.stdout) as { id: number; user: string; topic: string; signed: boolean }[];
    assert.equal(shown?.topic, topic);
    assert.equal(shown.user, `1:${ann.id}`);
    assert.equal(shown.signed, true);
    assert.ok(!listed.stdout.includes("sealed-secret"), "list never shows the secret");

    for (const args of [["remove", "abc"], ["remove", "999999"], ["remove"]]) {
      const run = await kairan(args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    }
    assert.equal((await server.store.read((tx) => tx.websub.all())).length, 1);

    const removed = await kairan(["remove", String(shown.id)]);
    assert.equal(removed.status, 0, removed.stderr);
    assert.deepEqual(await server.store.read((tx) => tx.websub.all()), []);
  });
});
