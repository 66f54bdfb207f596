// Chat in Chromium: Alice makes a THEME room with Bob from the room list, sends a message and sees
// it in the conversation with her name and the time; Bob, whose conversation page is open, sees it
// arrive without reloading (over the live stream once it exists; until then, and whenever the
// stream fails, by the page's 10-second polling). Then Alice sends a file, which Bob's open page
// shows with a link that downloads it, and Bob likes it: Alice sees the count. Run by
// `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { signIn } from "./sign-in.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("chat in Chromium", () => {
  let browser: Browser;
  let dataDir: string;
  let server: ServerProcess;
  let alice: Page;
  let bob: Page;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-chat-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    alice = await (await browser.newContext({ locale: "en-US", timezoneId: "Asia/Tokyo" })).newPage();
    bob = await (await browser.newContext({ locale: "en-US" })).newPage();
    await signIn(alice, `${server.url}/`, "alice@example.com", "alice-pass");
    await signIn(bob, `${server.url}/`, "bob@example.com", "bob-pass");
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a room, sends a message and shows it; the other member's open page receives it", async () => {
    await alice.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chat" }).click();
    await alice.waitForURL(`${server.url}/mpChat`);
    await alice.getByLabel("Room title").fill("Browser room");
    await alice.getByLabel("Bob Baba").check();
    await alice.getByRole("button", { name: "Create room" }).click();
    await alice.waitForURL(/\/mpChat\/view\?chatRoomId=1%23\d+$/);
    const roomUrl = alice.url();
    assert.equal(await alice.getByRole("heading", { level: 1 }).textContent(), "Browser room");

    await bob.goto(roomUrl);
    assert.equal(await bob.locator("#chat-messages > li").count(), 0);
    // A second listener in Bob's page, to see what the stream itself delivers (signed in by cookie).
    await bob.evaluate(`new Promise((resolve) => {
      window.chatEvents = [];
      const source = new EventSource("/api/stream/V2");
      source.addEventListener("chat", (event) => window.chatEvents.push(String(event.data)));
      source.addEventListener("open", () => resolve(undefined));
    })`);

    await alice.getByLabel("Message", { exact: true }).fill("Hello Bob & team");
    await alice.getByRole("button", { name: "Send" }).click();
    await alice.waitForURL(/#chat-form$/);
    const mine = alice.locator("#chat-messages > li").last();
    assert.equal((await mine.locator(".markdown").textContent())?.trim(), "Hello Bob & team");
    assert.equal(await mine.locator(".author").textContent(), "Alice Aoki");
    assert.ok(((await mine.locator("time").getAttribute("datetime")) ?? "").length > 0, "a time");

    const arrived = bob.locator("#chat-messages > li .markdown", { hasText: "Hello Bob & team" });
    await arrived.waitFor({ timeout: 20_000 });
    assert.equal(await bob.locator("#chat-messages > li .author").last().textContent(), "Alice Aoki");
    const delivered = (await bob.evaluate("window.chatEvents")) as string[];
    assert.ok(
      delivered.some((data) => data.includes("Hello Bob &amp; team")),
      "the live stream delivered the message to Bob's page",
    );

    // And back: Bob answers with the keyboard (Shift+Enter breaks the line, Enter sends); Alice's
    // open page receives it without reloading.
    const bobText = bob.getByLabel("Message", { exact: true });
    await bobText.fill("Hi Alice");
    await bobText.press("Shift+Enter");
    await bobText.pressSequentially("see you");
    assert.equal(await bobText.inputValue(), "Hi Alice\nsee you", "Shift+Enter starts a new line");
    await bobText.press("Enter");
    const answer = alice.locator("#chat-messages > li .markdown", { hasText: "Hi Alice" });
    await answer.waitFor({ timeout: 20_000 });
    assert.match(await answer.innerHTML(), /Hi Alice<br>\s*see you/, "one message of two lines");
  });

  it("sends a file that the other member's open page shows with a working link; a like's count reaches the author", async () => {
    await alice.getByLabel("Message", { exact: true }).fill("Here is the plan");
    await alice.getByLabel(/^Files/).setInputFiles({
      name: "plan.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("step one, step two"),
    });
    await alice.getByRole("button", { name: "Send" }).click();
    await alice.waitForURL(/#chat-form$/);
    assert.equal(await alice.locator("#chat-messages > li").last().locator("a.download").count(), 1);

    // Bob's page, open since the first test, receives the message with its file.
    const message = bob.locator("#chat-messages > li", { hasText: "Here is the plan" });
    const link = message.locator("a.download", { hasText: "plan.txt" });
    await link.waitFor({ timeout: 20_000 });
    const href = await link.getAttribute("href");
    assert.ok(href, "a download link");
    const download = await bob.context().request.get(new URL(href, server.url).toString());
    assert.equal(download.status(), 200);
    assert.equal(await download.text(), "step one, step two");

    await message.getByRole("button", { name: "Like" }).click();
    await bob.waitForURL(/#comment-\d+$/);
    const liked = bob.locator("#chat-messages > li", { hasText: "Here is the plan" });
    assert.equal(await liked.locator(".like-count").textContent(), "1 likes");
    assert.equal(await liked.getByRole("button", { name: "Unlike" }).count(), 1);

    await alice.reload();
    const own = alice.locator("#chat-messages > li", { hasText: "Here is the plan" });
    assert.equal(await own.locator(".like-count").textContent(), "1 likes");
  });
});
