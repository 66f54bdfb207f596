// Site administrators at the command line: `kairan user add --admin`, `kairan user admin EMAIL
// --grant|--revoke`, the last administrator kept (neither revoked nor disabled), seed users'
// `"admin": true`, and the audit rows the operator's acts leave.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("kairan: site administrators", (backend) => {
  let server: TestServer;
  const kairan = async (...args: string[]) => {
    const where =
      server.storeConfig.kind === "postgres" ? ["--database", server.storeConfig.url] : ["--data", server.dataDir];
    return runKairanHere([...args, ...where, "--log-level", "silent"], {}, "");
  };
  const isAdmin = (email: string) =>
    server.store.read(async (tx) => {
      const user = await tx.users.findByEmail(email);
      return user !== undefined && (await tx.users.isSiteAdmin(user.id));
    });

  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server?.close());

  it("adds an administrator with --admin, lists them, and logs the creation as the command line's", async () => {
    const added = await kairan("user", "add", "--name", "Root", "--email", "root@example.com", "--admin");
    assert.equal(added.status, 0, added.stderr);
    assert.equal((JSON.parse(added.stdout) as { admin?: boolean }).admin, true);
    assert.equal(await isAdmin("root@example.com"), true);
    const plain = await kairan("user", "add", "--name", "Pat", "--email", "pat@example.com");
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(await isAdmin("pat@example.com"), false);
    const list = await kairan("user", "list");
    assert.equal(list.status, 0, list.stderr);
    const listed = list.json<{ email: string; admin?: boolean }[]>();
    assert.equal(listed.find((u) => u.email === "root@example.com")?.admin, true);
    const rows = await server.store.read((tx) => tx.auditEvents.list({ actions: ["user.create"], limit: 10 }));
    assert.equal(rows.length, 2);
    assert.equal(rows[0]?.actor_label, "kairan (command line)");
    assert.equal(rows[0]?.actor_user_id, null);
  });

  it("keeps the last administrator: neither revoked nor disabled, until another is granted", async () => {
    const revoke = await kairan("user", "admin", "root@example.com", "--revoke");
    assert.equal(revoke.status, 2, revoke.stderr);
    assert.match(revoke.stderr, /last administrator/);
    const disable = await kairan("user", "disable", "root@example.com");
    assert.equal(disable.status, 2);
    assert.match(disable.stderr, /last administrator/);
    assert.equal(await isAdmin("root@example.com"), true);
    const refused = await server.store.read((tx) => tx.auditEvents.list({ outcome: "refused", limit: 10 }));
    assert.deepEqual(refused.map((r) => r.action).sort(), ["user.admin.revoke", "user.disable"]);

    const grant = await kairan("user", "admin", "pat@example.com", "--grant");
    assert.equal(grant.status, 0, grant.stderr);
    assert.deepEqual(JSON.parse(grant.stdout), {
      id: JSON.parse(grant.stdout).id,
      name: "Pat",
      email: "pat@example.com",
      admin: true,
      changed: true,
    });
    const again = await kairan("user", "admin", "pat@example.com", "--grant");
    assert.equal((JSON.parse(again.stdout) as { changed: boolean }).changed, false);
    const revoked = await kairan("user", "admin", "root@example.com", "--revoke");
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.equal(await isAdmin("root@example.com"), false);
    // Pat is the last now, and a disabled administrator does not count.
    assert.equal((await kairan("user", "admin", "root@example.com", "--grant")).status, 0);
    assert.equal((await kairan("user", "disable", "root@example.com")).status, 0);
    assert.equal((await kairan("user", "admin", "pat@example.com", "--revoke")).status, 2);
  });

  it("asks for exactly one of --grant and --revoke", async () => {
    for (const flags of [[], ["--grant", "--revoke"]]) {
      const answer = await kairan("user", "admin", "pat@example.com", ...flags);
      assert.equal(answer.status, 2, answer.stderr);
      assert.match(answer.stderr, /exactly one of --grant and --revoke/);
    }
  });

  it("app rotate-secret prints a new secret once and app revoke-tokens stops the tokens, each logged", async () => {
    const holder = await server.factories.user({ name: "Holder" });
    const bearer = () =>
      fetch(`${server.url}/api/notification/V2`, { headers: { authorization: `Bearer ${holder.token}` } });
    assert.equal((await bearer()).status, 200);
    const rotated = await kairan("app", "rotate-secret", holder.consumer.key);
    assert.equal(rotated.status, 0, rotated.stderr);
    const secret = /consumer secret: (\S+)/.exec(rotated.stdout)?.[1];
    const stored = await server.store.read((tx) => tx.apps.findByConsumerKey(holder.consumer.key));
    assert.ok(secret && secret !== holder.consumer.secret);
    assert.equal(stored?.consumerSecret, secret);
    const revoked = await kairan("app", "revoke-tokens", holder.consumer.key);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match(revoked.stdout, /revoked 1 tokens/);
    assert.equal((await bearer()).status, 401);
    const rows = await server.store.read((tx) =>
      tx.auditEvents.list({ actions: ["application.secret.rotate", "application.tokens.revoke"], limit: 10 }),
    );
    assert.deepEqual(rows.map((row) => row.action).sort(), ["application.secret.rotate", "application.tokens.revoke"]);
    assert.ok(
      rows.every((row) => !row.details.includes(secret)),
      "the secret is never logged",
    );
    const missing = await kairan("app", "revoke-tokens", "no-such-key");
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no application has the key "no-such-key"/);
  });

  it('makes seed users with "admin": true administrators', async () => {
    const seed = {
      users: [
        { ref: "a", name: "Seed Admin", email: "seed.admin@example.com", password: "pw", admin: true },
        { ref: "b", name: "Seed User", email: "seed.user@example.com", password: "pw" },
      ],
    };
    const { writeFile } = await import("node:fs/promises");
    const file = `${server.dataDir}/admin-seed.json`;
    await writeFile(file, JSON.stringify(seed));
    const loaded = await kairan("seed", file);
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.equal(await isAdmin("seed.admin@example.com"), true);
    assert.equal(await isAdmin("seed.user@example.com"), false);
  });
});
