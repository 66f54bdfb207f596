// `kairan app` and `kairan token` run in-process against the test server's database file, so a
// token the CLI prints is tried over real HTTP.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runKairanHere } from "../support/cli-in-process.js";
import type { TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

interface Run {
  readonly out: string;
  readonly err: string;
  readonly status: number;
}

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan app / kairan token", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await server.factories.user();
    await server.factories.group([alice]);
  });
  after(() => server.close());

  /** Runs the command line with the test server's data directory; captures output and exit status. */
  async function kairan(...args: string[]): Promise<Run> {
    const run = await runKairanHere([...args, "--data", server.dataDir, "--log-level", "silent"]);
    // Its lines, as the console mock this replaced joined them.
    return { out: run.stdout.replace(/\n$/, ""), err: run.stderr.replace(/\n$/, ""), status: run.status };
  }

  it("app add generates a key and secret, prints them once; list shows no secret", async () => {
    const added = await kairan("app", "add", "--name", "Mail client", "--level", "write");
    assert.equal(added.status, 0, added.err);
    const secret = /consumer secret: (\S+)/.exec(added.out)?.[1] ?? "";
    const key = /consumer key: +(\S+)/.exec(added.out)?.[1] ?? "";
    assert.ok(secret.length >= 32 && key.length >= 32);
    const listed = await kairan("app", "list", "--json");
    const apps = JSON.parse(listed.out) as Array<Record<string, unknown>>;
    assert.deepEqual(
      apps.find((a) => a.key === key),
      { id: apps.find((a) => a.key === key)?.id, key, level: "write", name: "Mail client" },
    );
    assert.ok(!listed.out.includes(secret));
    assert.match((await kairan("app", "list")).out, /^id +key +level +name/);
  });

  it("token add prints a working token once; revoke stops it; list shows no token", async () => {
    await kairan(
      "app",
      "add",
      "--name",
      "Script",
      "--level",
      "read",
      "--key",
      "script-key",
      "--secret",
      "script-secret",
    );
    const added = await kairan(
      "token",
      "add",
      "--user",
      alice.email.toUpperCase(),
      "--app",
      "script-key",
      "--label",
      "ci",
    );
    assert.equal(added.status, 0, added.err);
    const token = /token: +(\S+)/.exec(added.out)?.[1] ?? "";
    const board = () => request(`${server.url}/api/group/V2`, { token });
    assert.notEqual((await board()).status, 401);
    const listed = JSON.parse((await kairan("token", "list", "--json")).out) as Array<{
      id: number;
      label: string;
      user: string;
    }>;
    const mine = listed.find((t) => t.label === "ci");
    assert.equal(mine?.user, alice.email);
    assert.ok(!JSON.stringify(listed).includes(token));
    assert.equal((await kairan("token", "revoke", String(mine?.id))).status, 0);
    assert.equal((await board()).status, 401);
    assert.equal((await kairan("token", "revoke", String(mine?.id))).status, 2, "already revoked");
  });

  it("app add --legacy-signing marks the application; app update sets and clears the mark", async () => {
    const legacy = async (key: string) =>
      (await server.store.read((tx) => tx.apps.findByConsumerKey(key)))?.legacySigning;
    const added = await kairan(
      ...["app", "add", "--name", "Catalyst", "--level", "write", "--key", "cat-key", "--secret", "cat-secret"],
      "--legacy-signing",
    );
    assert.equal(added.status, 0, added.err);
    assert.match(added.out, /^legacy signing: +on$/m);
    assert.equal(await legacy("cat-key"), true);
    const plain = await kairan(
      "app",
      "add",
      "--name",
      "Plain",
      "--level",
      "read",
      "--key",
      "plain-key",
      "--secret",
      "plain-secret",
    );
    assert.doesNotMatch(plain.out, /legacy/, "the output of add without the flag is unchanged");
    assert.equal(await legacy("plain-key"), false);
    const cleared = await kairan("app", "update", "cat-key", "--no-legacy-signing");
    assert.equal(cleared.status, 0, cleared.err);
    assert.equal(cleared.out, "legacy signing off for application cat-key");
    assert.equal(await legacy("cat-key"), false);
    assert.equal((await kairan("app", "update", "plain-key", "--legacy-signing")).status, 0);
    assert.equal(await legacy("plain-key"), true);
  });

  it("app remove deletes the application", async () => {
    await kairan("app", "add", "--name", "Old", "--level", "Z", "--key", "old-key", "--secret", "old-secret");
    assert.equal((await kairan("app", "remove", "old-key")).status, 0);
    const again = await kairan("app", "remove", "old-key");
    assert.equal(again.status, 2);
    assert.match(again.err, /no application has the key "old-key"/);
  });

  it("bad input is one clear message and exit status 2", async () => {
    const cases: ReadonlyArray<readonly [string[], RegExp]> = [
      [["app", "add", "--name", "X", "--level", "admin"], /--level must be one of read, comments, write, Z/],
      [["app", "add", "--level", "read"], /--name is required/],
      [["app", "add", "--name", "X", "--level", "read", "--key", "k"], /--key and --secret together/],
      [
        ["app", "add", "--name", "X", "--level", "read", "--key", "script-key", "--secret", "12345678"],
        /exists already/,
      ],
      [["app", "frobnicate"], /unknown action "frobnicate"/],
      [["app", "update", "script-key"], /needs --legacy-signing or --no-legacy-signing/],
      [["app", "update", "script-key", "--legacy-signing", "--no-legacy-signing"], /needs --legacy-signing or/],
      [["app", "update", "--legacy-signing"], /exactly one KEY/],
      [["app", "update", "script-key", "--legacy-signing", "--level", "Z"], /does not change --level/],
      [["app", "update", "nope", "--legacy-signing"], /no application has the key "nope"/],
      [["app", "add", "--name", "X", "--level", "read", "--no-legacy-signing"], /--legacy-signing or nothing/],
      [["token", "add", "--user", "nobody@example.com", "--app", "script-key"], /no user has the e-mail address/],
      [["token", "add", "--user", alice.email, "--app", "nope"], /no application has the key "nope"/],
      [["token", "add", "--user", alice.email], /--user and --app are required/],
      [["token", "revoke", "abc"], /numeric ID/],
      [["token", "revoke", "99999"], /no live token has the id 99999/],
    ];
    for (const [args, message] of cases) {
      const run = await kairan(...args);
      assert.equal(run.status, 2, args.join(" "));
      assert.match(run.err, message);
      assert.equal(run.out, "");
    }
  });
});
