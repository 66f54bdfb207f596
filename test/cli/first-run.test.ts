// The first run without the demo, as an operator meets it: `kairan serve --no-demo` on an empty
// database prints one setup line; the sign-in page says what to do until the link's page has made
// the first administrator, who is then signed in; the link works once, is stored only as its hash,
// never reaches the log, and a restart with an account prints no link.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { openStore } from "../../src/store/open.js";
import type { StoreConfig } from "../../src/config/config.js";
import { type TestSchema, createTestSchema, describeEachBackend } from "../support/backends.js";
import { runKairan, startServerProcess } from "../support/cli.js";
import { tempDirs } from "../support/temp-dirs.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const tempDir = tempDirs("kairan-first-run-");
const SETUP_LINE = /^ {2}setup: (http:\/\/\S+)\/setup\/([A-Za-z0-9_-]{32})$/m;

describeEachBackend("kairan serve --no-demo: the first run", (backend) => {
  const schemas: TestSchema[] = [];
  after(async () => {
    for (const schema of schemas) await schema.drop();
  });

  async function where(): Promise<{ args: string[]; config: StoreConfig; data: string }> {
    const data = tempDir();
    if (backend === "sqlite")
      return { args: ["--data", data], config: { kind: "sqlite", file: join(data, "kairan.sqlite") }, data };
    const schema = await createTestSchema();
    schemas.push(schema);
    return { args: ["--data", data, "--database", schema.url], config: { kind: "postgres", url: schema.url }, data };
  }

  it("prints a setup link whose page makes the first administrator, once", async () => {
    const db = await where();
    const args = ["--port", "0", ...db.args, "--no-demo", "--log-level", "info", "--locale", "en"];
    const server = await startServerProcess(args);
    let secret = "";
    try {
      const line = SETUP_LINE.exec(server.stdout());
      assert.ok(line, `a setup line in:\n${server.stdout()}`);
      assert.equal(line[1], server.url);
      secret = line[2] ?? "";
      assert.ok(
        server.stdout().indexOf("setup:") < server.stdout().indexOf("listening on"),
        "before the listening line",
      );
      const store = await openStore(db.config);
      try {
        const stored = await store.read((tx) => tx.accountTokens.find("setup", hashToken(secret)));
        assert.equal(stored?.userId, null, "the link's hash is stored");
      } finally {
        await store.close();
      }
      if (backend === "sqlite")
        assert.ok(!readFileSync(join(db.data, "kairan.sqlite")).includes(secret), "the secret itself is not");
      const web = new WebClient(server.url);
      const signin = await web.get("/signin");
      assert.match(signin.html, /This server has no accounts yet\. Open the setup link/);
      await assertValidHtml(signin.html, "sign-in page before setup");
      const path = `/setup/${secret}`;
      const form = await web.get(path);
      assert.equal(form.status, 200);
      await assertValidHtml(form.html, "setup page");
      const mismatch = await web.post(path, {
        name: "Root",
        email: "root@example.com",
        password: "root-pass-1",
        repeat: "root-pass-2",
      });
      assert.equal(mismatch.status, 400);
      assert.match(mismatch.html, /differ/);
      const made = await web.post(path, {
        name: " Root ",
        email: "Root@Example.com",
        password: "root-pass-1",
        repeat: "root-pass-1",
      });
      assert.equal(made.status, 303);
      assert.equal(made.location, "/");
      assert.match((await web.get("/")).html, /Signed in as Root/);
      const again = await new WebClient(server.url).get(path);
      assert.equal(again.status, 400);
      assert.match(again.html, /set up already/);
      const after = await new WebClient(server.url).get("/signin");
      assert.doesNotMatch(after.html, /no accounts yet/);
      await new WebClient(server.url).signIn("root@example.com", "root-pass-1");
    } finally {
      assert.equal(await server.stop("SIGTERM"), 0);
    }
    assert.ok(!server.stderr().includes(secret), "the secret is not in the log");
    assert.match(server.stderr(), /\/setup\/\[secret\]/, "the request was logged, redacted");
    const store = await openStore(db.config);
    try {
      assert.deepEqual(
        await store.read((tx) => tx.users.listAdminIds()),
        [1],
        "the first account is the administrator",
      );
      assert.equal(await store.read((tx) => tx.accountTokens.find("setup", hashToken(secret))), undefined);
    } finally {
      await store.close();
    }
    const listed = runKairan(["user", "list", ...db.args, "--log-level", "silent"]);
    assert.equal(listed.status, 0, listed.stderr);
    assert.deepEqual(JSON.parse(listed.stdout), [{ id: "1:1", name: "Root", email: "root@example.com", admin: true }]);
    const restarted = await startServerProcess(["--port", "0", ...db.args, "--no-demo"]);
    assert.doesNotMatch(restarted.stdout(), /setup:/, "an account exists: no link");
    assert.equal(await restarted.stop("SIGTERM"), 0);
  });

  it("prints a new link at every start until an account exists, and none with the demo", async () => {
    const db = await where();
    const first = await startServerProcess(["--port", "0", ...db.args, "--no-demo"]);
    const one = SETUP_LINE.exec(first.stdout())?.[2];
    assert.equal(await first.stop(), 0, `exit status; stderr:\n${first.stderr()}`);
    const second = await startServerProcess([
      "--port",
      "0",
      ...db.args,
      "--no-demo",
      "--public-url",
      "https://kairan.example",
    ]);
    const line = SETUP_LINE.exec(second.stdout().replace("https://", "http://"));
    try {
      assert.ok(
        one && line?.[2] && line[2] !== one,
        `a new link; first:\n${first.stdout()}\nsecond:\n${second.stdout()}`,
      );
      assert.match(second.stdout(), /setup: https:\/\/kairan\.example\/setup\//, "built from --public-url");
      // Both links work until their end: the first process's one too.
      assert.equal((await new WebClient(second.url).get(`/setup/${one}`)).status, 200);
    } finally {
      assert.equal(await second.stop(), 0, `exit status; stderr:\n${second.stderr()}`);
    }
    const demo = await startServerProcess(["--port", "0", "--data", tempDir()]);
    assert.doesNotMatch(demo.stdout(), /setup:/);
    assert.equal(await demo.stop(), 0, `exit status; stderr:\n${demo.stderr()}`);
  });
});
