// `kairan user require-two-factor EMAIL --on|--off` against a running server's database: the person
// is held to it at their next page, an audit row names the command line, and the usage is checked.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp } from "../support/totp.js";
import { WebClient } from "../support/web.js";

describeEachBackend("kairan user require-two-factor", (backend) => {
  let server: TestServer;
  let ann: TestUser;
  const kairan = async (args: readonly string[]) => {
    const where =
      server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : ["--data", server.dataDir];
    return runKairanHere(["user", "require-two-factor", ...args, ...where, "--log-level", "silent"], {}, "");
  };

  before(async () => {
    server = await startTestServer(backend);
    ann = await server.factories.user({ name: "Ann", email: "ann2fa@example.com" });
  });
  after(() => server?.close());

  it("--on leads the person to enrolment at their next page; --off frees them; each change is audited once", async () => {
    const web = new WebClient(server.url);
    await web.signIn(ann.email);
    const on = await kairan(["ANN2FA@example.com", "--on"]);
    assert.equal(on.status, 0, on.stderr);
    assert.deepEqual(JSON.parse(on.stdout), {
      twoFactorRequired: true,
      id: `1:${ann.id}`,
      name: "Ann",
      email: ann.email,
      changed: true,
      twoFactorOn: false,
    });
    assert.equal((await web.get("/")).location, "/account/two-factor");
    const again = await kairan([ann.email, "--on"]);
    assert.equal(JSON.parse(again.stdout).changed, false);
    const off = await kairan([ann.email, "--off"]);
    assert.equal(off.status, 0, off.stderr);
    assert.equal((await web.get("/")).status, 200);
    const rows = await server.store.read((tx) => tx.auditEvents.list({ actions: ["user.update"], limit: 10 }));
    assert.deepEqual(
      rows.map((row) => [row.actor_label, row.target_id, JSON.parse(row.details)]),
      [
        ["kairan (command line)", String(ann.id), { twoFactorRequired: { before: true, after: false } }],
        ["kairan (command line)", String(ann.id), { twoFactorRequired: { before: false, after: true } }],
      ],
    );
  });

  it("remove-two-factor turns it off for a person who lost their phone: the password alone signs in", async () => {
    const bob = await server.factories.user({ name: "Bob" });
    const web = new WebClient(server.url);
    await web.signIn(bob.email);
    await enrolTotp(web, () => server.clock.now());
    const where =
      server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : ["--data", server.dataDir];
    const run = (email: string) =>
      runKairanHere(["user", "remove-two-factor", email, ...where, "--log-level", "silent"], {}, "");
    const removed = await run(bob.email);
    assert.equal(removed.status, 0, removed.stderr);
    assert.deepEqual(JSON.parse(removed.stdout), {
      removed: "two-factor",
      id: `1:${bob.id}`,
      name: "Bob",
      email: bob.email,
      changed: true,
    });
    assert.equal(JSON.parse((await run(bob.email)).stdout).changed, false);
    await new WebClient(server.url).signIn(bob.email);
    const rows = await server.store.read((tx) => tx.auditEvents.list({ actions: ["two-factor.disable"], limit: 10 }));
    assert.deepEqual(
      rows.map((row) => [row.actor_label, row.target_id]),
      [["kairan (command line)", String(bob.id)]],
    );
  });

  it("wants exactly one of --on and --off, and a known address", async () => {
    for (const args of [[ann.email], [ann.email, "--on", "--off"]]) {
      const answer = await kairan(args);
      assert.equal(answer.status, 2);
      assert.match(answer.stderr, /exactly one of --on and --off/);
    }
    const unknown = await kairan(["nobody@example.com", "--on"]);
    assert.notEqual(unknown.status, 0);
    assert.match(unknown.stderr, /nobody@example\.com/);
  });
});
