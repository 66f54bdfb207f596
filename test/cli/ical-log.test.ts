// The server's request log never holds a calendar address's secret (the address is a credential
// that calendar applications poll for months). Runs the built server: `npm run build` first.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { redactUrl } from "../../src/http-kit/log-url.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";

describe("the request log and calendar addresses", () => {
  let dataDir: string;
  let server: ServerProcess;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "kairan-ical-log-"));
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "info"]);
  });
  after(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("masks the secret of /ical/ addresses and leaves other URLs as they are", () => {
    assert.equal(redactUrl("/ical/abcDEF_-123/me.ics"), "/ical/[secret]/me.ics");
    assert.equal(redactUrl("/ical/abc/group/1:2.ics?x=1"), "/ical/[secret]/group/1:2.ics?x=1");
    assert.equal(redactUrl("/ical/"), "/ical/[secret]");
    assert.equal(redactUrl("/api/board/V2?ical/abc"), "/api/board/V2?ical/abc");
  });

  it("logs the request with the secret masked", async () => {
    const secret = "SeCrEt-in-the-log-0123456789abcd";
    assert.equal((await fetch(`${server.url}/ical/${secret}/me.ics`)).status, 404);
    assert.equal((await fetch(`${server.url}/ical/${secret}/group/1:1.ics`)).status, 404);
    // A notification's one-click unsubscribe link is a credential too (src/http-kit/log-url.ts).
    assert.equal((await fetch(`${server.url}/unsubscribe/${secret}`)).status, 404);
    assert.equal((await fetch(`${server.url}/m/unsubscribe/${secret}`, { method: "POST" })).status, 404);
    await server.stop();
    const log = server.stderr();
    assert.match(log, /\/ical\/\[secret\]\/me\.ics/, "the request is logged");
    assert.match(log, /\/m\/unsubscribe\/\[secret\]/, "the unsubscribe request is logged");
    assert.ok(!log.includes(secret), "without its secret");
  });
});
