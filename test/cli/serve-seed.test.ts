import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEMO_WEEK, demoShiftDays } from "../../src/seed/demo-dates.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import { startServerProcess } from "../support/cli.js";
import { runKairanHere, startServeHere } from "../support/cli-in-process.js";
import { entriesOf, request } from "../support/http.js";
import { tempDirs } from "../support/temp-dirs.js";

const tempDir = tempDirs("kairan-cli-");

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan serve", () => {
  // Processes: what the bin does with SIGTERM and SIGINT is the point.
  it("loads the demo on first start and prints a curl line that reads the demo board; SIGTERM exits 0", async () => {
    const data = tempDir();
    const server = await startServerProcess(["--port", "0", "--data", data]);
    try {
      const curl = /curl -H 'Authorization: Bearer (\S+)' '(\S+)'/.exec(server.stdout());
      assert.ok(curl, `a curl line in:\n${server.stdout()}`);
      const answer = await request(curl[2]!, { token: curl[1]! });
      assert.equal(answer.status, 200, answer.text);
      assert.ok(entriesOf(answer.xml).length >= 3, "the demo board has topics");
      // The demo's week is the week it was started in: its calendar never opens empty.
      const monday = DEMO_WEEK + demoShiftDays(Date.now()) * 86_400_000;
      const week = `term-start=${new Date(monday).toISOString().slice(0, 10)}T00:00:00Z&term-end=${new Date(monday + 7 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`;
      const events = await request(curl[2]!.replace("/api/board/V2?", `/api/gwSchedule/V2?${week}&`), {
        token: curl[1]!,
      });
      assert.equal(events.status, 200, events.text);
      assert.match(events.text, /<title[^>]*>Daily stand-up<\/title>/);
      assert.match(events.text, /<title[^>]*>Launch day<\/title>/);
    } finally {
      assert.equal(await server.stop("SIGTERM"), 0);
    }
    const again = await startServerProcess(["--port", "0", "--data", data]);
    assert.doesNotMatch(again.stdout(), /Loaded the demo/, "the demo loads only into an empty database");
    assert.equal(await again.stop("SIGINT"), 0);
  });

  it("starts empty with --no-demo", async () => {
    const data = tempDir();
    const server = await startServeHere(["--port", "0", "--data", data, "--no-demo", "--log-level", "warn"]);
    assert.doesNotMatch(server.stdout(), /curl/);
    await server.stop();
    const store = openSqliteStore(join(data, "kairan.sqlite"));
    assert.equal(await store.isEmpty(), true);
    await store.close();
  });

  it("reports every bad option at once and exits 2", async () => {
    const result = await runKairanHere(["serve", "--port", "99999", "--locale", "fr", "--data", tempDir()], {
      KAIRAN_PUBLIC_URL: "ftp://x",
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /--port \/ KAIRAN_PORT/);
    assert.match(result.stderr, /--locale \/ KAIRAN_LOCALE/);
    assert.match(result.stderr, /--public-url \/ KAIRAN_PUBLIC_URL/);
    assert.equal((await runKairanHere(["serve", "--bogus"])).status, 2);
    assert.equal((await runKairanHere(["frobnicate"])).status, 2);
    const limits = await runKairanHere(
      ["serve", "--rate-limit-token", "0", "--shutdown-grace", "soon", "--data", tempDir()],
      {
        KAIRAN_MAX_UPLOADS: "-3",
      },
    );
    assert.equal(limits.status, 2);
    assert.match(limits.stderr, /--rate-limit-token \/ KAIRAN_RATE_LIMIT_TOKEN: must be 1 or more/);
    assert.match(limits.stderr, /--shutdown-grace \/ KAIRAN_SHUTDOWN_GRACE/);
    assert.match(limits.stderr, /--max-uploads \/ KAIRAN_MAX_UPLOADS/);
  });

  it("describes every command with --help", async () => {
    const help = await runKairanHere(["--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /serve/);
    assert.match(help.stdout, /seed/);
    assert.match((await runKairanHere(["serve", "--help"])).stdout, /--public-url/);
    assert.match((await runKairanHere(["seed", "--help"])).stdout, /kairan seed FILE/);
  });
});

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
describe("kairan seed", () => {
  const good = {
    users: [
      { ref: "alice", name: "Alice", email: "alice@example.com", password: "pw" },
      { ref: "bob", name: "Bob", email: "bob@example.com", password: "pw" },
    ],
    apps: [{ ref: "cli", name: "CLI", consumerKey: "k", consumerSecret: "s", accessLevel: "Z" }],
    tokens: [{ user: "alice", app: "cli", token: "alice-token", secret: "alice-secret" }],
    groups: [
      {
        ref: "dev",
        name: "Developers",
        members: [{ user: "alice", manager: true }, { user: "bob" }],
        boardFolders: [{ ref: "news", name: "News" }],
        topics: [
          { ref: "t1", title: "Hello", author: "alice", folder: "news", comments: [{ author: "bob", text: "Hi" }] },
        ],
      },
    ],
  };

  it("loads a file in one go and prints every ref's identifier", async () => {
    const data = tempDir();
    const file = join(data, "seed.json");
    writeFileSync(file, JSON.stringify(good));
    const result = await runKairanHere(["seed", file, "--data", data]);
    assert.equal(result.status, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as Record<string, Record<string, string>>;
    assert.deepEqual(printed.users, { alice: "1:1", bob: "1:2" });
    assert.deepEqual(printed.apps, { cli: "k" });
    assert.deepEqual(printed.groups, { dev: "1:1" });
    assert.deepEqual(printed.topics, { t1: "GROUP,1:1,BOARD,1:1" });
    assert.deepEqual(printed.folders, { news: "1:1" });
  });

  it("names the path of every problem, exits 2 and writes nothing", async () => {
    const data = tempDir();
    const bad = structuredClone(good) as typeof good & { groups: [{ topics: [{ author: string; title: string }] }] };
    bad.groups[0].topics[0].author = "dave";
    (bad.users[1] as { email: string }).email = "not-an-address";
    const file = join(data, "bad.json");
    writeFileSync(file, JSON.stringify(bad));
    const result = await runKairanHere(["seed", file, "--data", data]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /users\[1\]\.email: not an e-mail address/);
    const refs = structuredClone(good);
    refs.groups[0]!.topics[0]!.author = "dave";
    writeFileSync(file, JSON.stringify(refs));
    const second = await runKairanHere(["seed", file, "--data", data]);
    assert.equal(second.status, 2);
    assert.match(second.stderr, /groups\[0\]\.topics\[0\]\.author: no member of this group with ref "dave"/);
    writeFileSync(file, "{ not json");
    assert.match((await runKairanHere(["seed", file, "--data", data])).stderr, /not valid JSON/);
    const store = openSqliteStore(join(data, "kairan.sqlite"));
    await store.migrate();
    assert.equal(await store.isEmpty(), true, "nothing written");
    await store.close();
  });
});
