// Two people, two browser contexts, one real `kairan serve` process: the web interface as it is
// used. Run by `npm run test:browser` (Chromium needed; `npm test` needs nothing but Node).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium, loadedImageWidth } from "./chromium.js";
import { openMenu } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  assert.match(page.url(), /\/signin\?next=/, "signed out: the sign-in page");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
}

describe("the web interface in Chromium: two people", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let alice: BrowserContext;
  let bob: BrowserContext;
  let a: Page;
  let b: Page;
  let topicUrl: string;

  before(async () => {
    // Chromium first: without it the suite fails here, with the reason, instead of passing.
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    alice = await browser.newContext({ locale: "en-US", timezoneId: "Asia/Tokyo" });
    bob = await browser.newContext({
      locale: "en-US",
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    a = await alice.newPage();
    b = await bob.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("Alice signs in and posts a topic, then a comment with a picture", async () => {
    await signIn(a, server.url, "alice@example.com", "alice-pass");
    await a.getByRole("link", { name: "Browser Team" }).click();
    await a.getByRole("link", { name: "New topic" }).click();
    await a.getByLabel("Title").fill("Launch party");
    await a.getByLabel("Text").fill("Friday at six.\nBring snacks.");
    await a.getByLabel("Folder").selectOption({ label: "News" });
    await a.getByLabel("Every member may edit (shared editing)").check();
    await a.getByRole("button", { name: "Post topic" }).click();
    await a.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
    topicUrl = a.url();
    assert.equal(await a.getByRole("heading", { level: 1 }).textContent(), "Launch party");
    // The server prints times in the zone Alice chose (none: the server's), whatever her browser's.
    const shown = await a.locator(".item-head time").first().textContent();
    assert.match(shown ?? "", /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);

    const png = await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    await a.getByLabel("Comment", { exact: true }).fill("Here is the map.");
    await a.getByLabel(/^Files/).setInputFiles([{ name: "map.png", mimeType: "image/png", buffer: png }]);
    await a.getByRole("button", { name: "Post comment" }).click();
    await a.waitForURL(/#comment-1$/);
    const preview = a.locator("#comment-1 img.preview");
    await preview.waitFor();
    assert.equal(await loadedImageWidth(preview), 120, "the preview image loads");
    assert.match((await a.locator("#comment-1 a.download").textContent()) ?? "", /Download map\.png/);
  });

  it("refuses more than 10 files in the browser before anything is sent", async () => {
    const files = Array.from({ length: 11 }, (_, i) => ({
      name: `f${i}.txt`,
      mimeType: "text/plain",
      buffer: Buffer.from(`file ${i}`),
    }));
    await a.getByLabel(/^Files/).setInputFiles(files);
    const message = a.locator(".file-error");
    assert.equal(await message.textContent(), "Choose at most 10 files.");
    assert.equal(await message.isVisible(), true);
    await a.getByRole("button", { name: "Post comment" }).click();
    assert.equal(a.url().endsWith("#comment-1"), true, "the form was not sent");
    await a.getByLabel(/^Files/).setInputFiles([]);
  });

  it("Bob, on his phone, sees the notification, opens the topic, comments and likes it", async () => {
    await b.goto(`${server.url}/m/`);
    await b.getByLabel("E-mail address").fill("bob@example.com");
    await b.getByLabel("Password").fill("bob-pass");
    await b.getByRole("button", { name: "Sign in" }).click();
    await b.waitForURL(`${server.url}/m`);
    assert.match(
      (await b.locator(".card").textContent()) ?? "",
      /Browser Team[\s\S]*1 unconfirmed/,
      "my groups counts it",
    );
    await openMenu(b);
    await b.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notifications" }).click();
    const row = b.locator(".notifications .row.unread");
    assert.equal(await row.count(), 1);
    assert.match((await row.textContent()) ?? "", /Launch party[\s\S]*Alice Aoki commented[\s\S]*New comments: 1/);
    await row.getByRole("link", { name: "Launch party" }).click();
    await b.waitForURL(/#comment-1$/);
    assert.equal(
      b.url().replace(/#.*$/, ""),
      topicUrl.replace(server.url, `${server.url}/m`),
      "the phone page of the topic",
    );
    await b.goto(`${server.url}/m/notifications`);
    await b.getByRole("button", { name: "Mark as read" }).click();
    await b.waitForLoadState();
    assert.equal(await b.locator(".notifications .row.unread").count(), 0, "confirmed");
    await b.goto(topicUrl.replace(server.url, `${server.url}/m`));
    assert.match((await b.locator("#comment-1").textContent()) ?? "", /Here is the map\./);
    const width = await b.evaluate<number>("document.documentElement.scrollWidth");
    assert.ok(width <= 390, `no sideways scrolling on a phone (page is ${width}px wide)`);
    await b.getByLabel("Comment", { exact: true }).fill("Count me in!");
    await b.getByRole("button", { name: "Post comment" }).click();
    await b.waitForURL(/#comment-2$/);
    assert.match((await b.locator("#comment-2").textContent()) ?? "", /Count me in!/);
    await b.locator(".topic .reactions").getByRole("button", { name: "Like" }).click();
    await b.waitForLoadState();
    assert.match((await b.locator(".topic .likers").textContent()) ?? "", /Liked by Bob Baba/);
    assert.equal(await b.locator(".topic .reactions").getByRole("button", { name: "Unlike" }).count(), 1);
  });

  it("Alice sees the like notification and who liked her topic", async () => {
    await a.goto(`${server.url}/`);
    await a.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Likes" }).click();
    const row = a.locator(".notifications .row.unread");
    assert.equal(await row.count(), 1);
    assert.match((await row.textContent()) ?? "", /Launch party[\s\S]*Liked by Bob Baba/);
    await row.getByRole("button", { name: "Mark as read" }).click();
    await a.waitForLoadState();
    assert.equal(await a.locator(".notifications .row.unread").count(), 0);
    await a.goto(topicUrl);
    assert.match((await a.locator(".topic .likers").textContent()) ?? "", /Liked by Bob Baba/);
    assert.match((await a.locator("#comment-2").textContent()) ?? "", /Count me in!/);
  });

  it("refuses Alice's edit while Bob holds the lease, naming him; after his save she may edit", async () => {
    await b.goto(topicUrl.replace(server.url, `${server.url}/m`));
    await b.getByRole("button", { name: "Edit", exact: true }).click();
    await b.getByLabel("Title").waitFor();
    await a.goto(topicUrl);
    assert.match((await a.locator("#edited-by").textContent()) ?? "", /Bob Baba is editing this topic until/);
    const refused = await a.goto(`${topicUrl}/edit`);
    assert.equal(refused?.status(), 409);
    assert.equal(await a.getByRole("heading", { level: 1 }).textContent(), "This topic cannot be edited now");
    assert.match((await a.locator("main").textContent()) ?? "", /Bob Baba is editing this topic until/);
    await b.getByLabel("Title").fill("Launch party (Friday)");
    await b.getByRole("button", { name: "Save" }).click();
    await b.waitForURL(/\/m\/g\/1:1\/board\/1:\d+$/);
    assert.equal(await b.getByRole("heading", { level: 1 }).textContent(), "Launch party (Friday)");
    await a.goto(topicUrl);
    await a.getByRole("button", { name: "Edit", exact: true }).click();
    assert.equal(await a.getByLabel("Title").inputValue(), "Launch party (Friday)");
    await a.getByRole("button", { name: "Cancel" }).click();
    await a.waitForURL(topicUrl);
  });

  it("works from the keyboard: the skip link leads to the content", async () => {
    await a.goto(`${server.url}/`);
    await a.keyboard.press("Tab");
    const focused = await a.evaluate<string | undefined>("document.activeElement?.textContent");
    assert.equal(focused, "Skip to content");
    await a.keyboard.press("Enter");
    assert.match(a.url(), /#content$/);
  });
});
