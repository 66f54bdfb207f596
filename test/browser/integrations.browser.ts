// A group's integrations in Chromium: the manager adds an outgoing webhook from the members page,
// copies its signing secret (shown once), posts a topic and sees the delivery arrive at a receiver
// (verified with the Standard Webhooks library) and in the page's log, then redelivers it; then
// makes an incoming hook, posts Slack's payload to its address, finds the topic on the board, and
// revokes the hook. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { type Receiver, startReceiver } from "../webhook/receiver.js";
import { launchChromium } from "./chromium.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("a group's webhooks and incoming hooks in Chromium", () => {
  let browser: Browser;
  let dataDir: string;
  let server: ServerProcess;
  let receiver: Receiver;
  let alice: Page;

  before(async () => {
    browser = await launchChromium();
    receiver = await startReceiver();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-integrations-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    // The receiver listens on 127.0.0.1, an address webhooks are refused unless the operator allows it.
    server = await startServerProcess([
      "--port",
      "0",
      "--data",
      dataDir,
      "--no-demo",
      "--webhook-allow-private",
      "--log-level",
      "warn",
    ]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    alice = await context.newPage();
    await alice.goto(`${server.url}/`);
    await alice.getByLabel("E-mail address").fill("alice@example.com");
    await alice.getByLabel("Password").fill("alice-pass");
    await alice.getByRole("button", { name: "Sign in" }).click();
    await alice.waitForURL(/\/$/);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("adds a webhook, shows its secret once, logs a signed delivery and redelivers it", async () => {
    await alice.goto(`${server.url}/g/1:1/members`);
    await alice.getByRole("link", { name: "Webhooks of this group", exact: true }).click();
    await alice.getByLabel("Address").fill(receiver.url);
    await alice.getByRole("checkbox", { name: "topic.created" }).check();
    await alice.getByRole("button", { name: "Add webhook" }).click();
    await alice.getByRole("heading", { name: "Webhook added" }).waitFor();
    const secret = await alice.getByLabel("Signing secret").inputValue();
    assert.match(secret, /^whsec_/);
    await alice.getByRole("link", { name: receiver.url }).click();
    const webhookPage = alice.url();

    await alice.goto(`${server.url}/g/1:1/board/new`);
    await alice.getByLabel("Title").fill("Release 2.1 is out");
    await alice.getByRole("button", { name: "Post topic" }).click();
    await alice.waitForURL(/\/g\/1:1\/board\/1:\d+$/);

    await eventually(() => receiver.received.length === 1, "the delivery reaches the receiver");
    const [first] = receiver.received;
    assert.ok(first);
    const payload = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as {
      type: string;
    };
    assert.equal(payload.type, "topic.created");

    await alice.goto(webhookPage);
    const log = alice.getByRole("table", { name: "Deliveries" });
    await eventually(async () => /delivered \(200\)/.test((await log.textContent()) ?? ""), "the log says delivered");
    await log.getByRole("button", { name: "Redeliver" }).first().click();
    await eventually(() => receiver.received.length === 2, "the redelivery reaches the receiver");
    const again = receiver.received[1];
    assert.ok(again);
    assert.equal(again.headers["webhook-id"], first.headers["webhook-id"], "the same message, sent again");
    new Webhook(secret).verify(again.body, again.headers as Record<string, string>);
  });

  it("makes an incoming hook whose Slack payload becomes a topic, and revokes it", async () => {
    await alice.goto(`${server.url}/g/1:1/members`);
    await alice.getByRole("link", { name: "Incoming webhooks of this group" }).click();
    await alice.waitForURL(/\/hooks$/);
    const hooksPage = alice.url();
    await alice.getByLabel("Name shown with each post").fill("CI");
    await alice.getByRole("button", { name: "Make hook" }).click();
    const address = ((await alice.locator("#hook-address").textContent()) ?? "").trim();
    assert.match(address, /\/hooks\/\S+$/);

    const post = () =>
      fetch(address, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: "Build 42 passed" }),
      });
    const created = await post();
    assert.equal(created.status, 201);
    const answer = (await created.json()) as { id: string; url: string };
    await alice.goto(answer.url);
    assert.match((await alice.locator("main").textContent()) ?? "", /CI[\s\S]*Build 42 passed/);

    await alice.goto(hooksPage);
    await alice.getByRole("button", { name: "Revoke CI" }).click();
    await alice.getByText("No hooks yet.").waitFor();
    assert.equal((await post()).status, 404, "a revoked address answers nothing");
  });
});
