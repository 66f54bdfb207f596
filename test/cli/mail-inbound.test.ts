// `kairan serve --smtp-inbound-port`: the listener starts with the server and prints where, a reply
// sent to it is posted, its start-up failures are one line with exit status 2, and reply tokens
// never reach the server's output at its most verbose level. Runs the built server: `npm run build` first.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { systemClock } from "../../src/clock.js";
import { loadConfig } from "../../src/config/config.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema, describeEachBackend } from "../support/backends.js";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { request } from "../support/http.js";
import { replyAddress, sendReply } from "../support/mail-reply.js";

const DOMAIN = "reply.log.example";
const ALICE = { ref: "alice", name: "Alice", email: "alice@log.example", password: "alice-password-1" };
const TOKEN = "mail-inbound-alice-token";

describeEachBackend("kairan serve --smtp-inbound-port", (backend) => {
  let dataDir: string;
  let schema: TestSchema | undefined;
  let data: string[];
  let server: ServerProcess;
  let store: Store;
  let smtpPort: number;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "kairan-mail-inbound-"));
    const seedFile = join(dataDir, "seed.json");
    const apps = [{ ref: "z", name: "Z", consumerKey: "z-key", consumerSecret: "z-secret", accessLevel: "Z" }];
    const tokens = [{ user: "alice", app: "z", token: TOKEN, secret: "s" }];
    const topics = [{ ref: "t", title: "Budget", author: "alice", summary: "Numbers" }];
    const groups = [{ ref: "g", name: "Team", members: [{ user: "alice", manager: true }], topics }];
    writeFileSync(seedFile, JSON.stringify({ users: [ALICE], apps, tokens, groups }));
    schema = backend === "postgres" ? await createTestSchema() : undefined;
    data = ["--data", dataDir, ...(schema ? ["--database", operatorUrl(schema.name)] : [])];
    assert.equal(runKairan(["seed", seedFile, ...data]).status, 0);
    const flags = ["--port", "0", ...data, "--no-demo", "--log-level", "trace", "--mail-domain", DOMAIN];
    server = await startServerProcess([...flags, "--smtp-inbound-port", "0"]);
    store = await openStore(loadConfig({ data: dataDir, database: schema ? schema.url : undefined }, {}).store);
  });
  after(async () => {
    await server?.stop();
    await store?.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints `smtp inbound on HOST:PORT` before `listening on`, on the server's host", () => {
    const match = /^smtp inbound on 127\.0\.0\.1:(\d+)$/m.exec(server.stdout());
    assert.ok(match, server.stdout());
    smtpPort = Number(match[1]);
    assert.ok(server.stdout().indexOf("smtp inbound on") < server.stdout().indexOf("listening on"));
  });

  it("posts a reply, refuses a forged one, and never writes a token to its output", async () => {
    const secrets: string[] = [];
    const to = await replyAddress({ store, clock: systemClock }, DOMAIN, 1, { kind: "BOARD", groupId: 1, id: 1 });
    const token = to.slice("reply+".length, to.indexOf("@"));
    secrets.push(token, token.toUpperCase());
    const posted = await sendReply(smtpPort, { from: ALICE.email, to, text: "Posted by mail." });
    assert.equal(posted.code, 250, posted.response);
    const comments = await request(`${server.url}/api/comment/V2?entry=GROUP,1:1,BOARD,1:1`, { token: TOKEN });
    assert.match(comments.text, /Posted by mail\./);
    const forged = `reply+${token.slice(0, -3)}abc@${DOMAIN}`;
    secrets.push(forged.slice("reply+".length, forged.indexOf("@")));
    assert.equal((await sendReply(smtpPort, { from: ALICE.email, to: forged, text: "x" })).code, 550);
    assert.equal((await sendReply(smtpPort, { from: "mallory@log.example", to, text: "x" })).code, 550);
    const output = `${server.stdout()}\n${server.stderr()}`;
    assert.match(output, /reply by mail: posted as a comment/, "the listener logs at this level");
    assert.match(output, /reply by mail: refused/);
    for (const secret of secrets) assert.ok(!output.includes(secret), `the output shows the token ${secret}`);
  });

  it("fails to start in one line, exit 2, when its port is in use or is the HTTP port", async () => {
    const held = await holdPort();
    try {
      const inUse = runKairan(["serve", ...data, "--port", "0", "--smtp-inbound-port", String(held.port)]);
      assertOneLine(inUse, new RegExp(`port ${held.port} on 127\\.0\\.0\\.1 is in use; .* --smtp-inbound-port$`));
    } finally {
      await new Promise((resolve) => held.server.close(resolve));
    }
    const same = runKairan(["serve", ...data, "--port", "41999", "--smtp-inbound-port", "41999"]);
    assertOneLine(same, /--smtp-inbound-port 41999 is the HTTP port \(--port\)/);
    const bad = runKairan(["serve", ...data, "--port", "0", "--smtp-inbound-port", "70000"]);
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(bad.stderr, /--smtp-inbound-port/);
  });
});

function assertOneLine(result: { status: number | null; stdout: string; stderr: string }, message: RegExp): void {
  assert.equal(result.status, 2, result.stderr);
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0] ?? "", message);
}

async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address && typeof address === "object");
  return { server, port: address.port };
}

function operatorUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL ?? "");
  url.searchParams.set("search_path", name);
  return url.toString();
}
