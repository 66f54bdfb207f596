// Mentions in Chromium, against a real `kairan serve` process: typing @ in a text field lists the
// group's members (a listbox driven from the keyboard, or by touch at 390 px), picking one inserts
// the handle, and the person named sees the notification and a link to their member page. Text is
// Markdown on the page (with a preview), and raw HTML in it never runs.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { signIn } from "./sign-in.js";

const SEED = fileURLToPath(new URL("./mentions-seed.json", import.meta.url));

/** The names the open suggestion list offers, in order. */
async function offered(page: Page): Promise<string[]> {
  const list = page.getByRole("listbox", { name: "Members to mention" });
  await list.waitFor({ state: "visible" });
  return (await list.getByRole("option").allTextContents()).map((text) => text.trim());
}

describe("mentions in Chromium: suggest, pick, notify, link", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let alice: BrowserContext;
  let bob: BrowserContext;
  let a: Page;
  let b: Page;
  let topicUrl: string;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-mentions-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    alice = await browser.newContext({ locale: "en-US" });
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

  it("Alice types @, moves through the members with the arrows, picks Bob with Enter and posts", async () => {
    await signIn(a, `${server.url}/`, "alice@example.com", "alice-pass");
    await a.getByRole("link", { name: "Mention Team" }).click();
    await a.getByRole("link", { name: "New topic" }).click();
    await a.getByLabel("Title").fill("Who brings cake?");
    const text = a.getByLabel("Text");
    await text.click();
    await text.pressSequentially("Hi @");
    assert.deepEqual(await offered(a), ['Alice Aoki @"Alice Aoki"', 'Bob Baba @"Bob Baba"', "Carol @Carol"]);
    assert.equal(await a.getByRole("listbox", { name: "Members to mention" }).isVisible(), true);
    const first = await text.getAttribute("aria-activedescendant");
    assert.equal(await a.locator(`#${first}`).getAttribute("aria-selected"), "true", "the first is highlighted");
    await text.press("ArrowDown");
    await text.press("ArrowDown");
    await text.press("ArrowUp");
    const current = await text.getAttribute("aria-activedescendant");
    assert.match((await a.locator(`#${current}`).textContent()) ?? "", /^Bob Baba/);
    await text.press("Enter");
    assert.equal(await text.inputValue(), 'Hi @"Bob Baba" ', "the handle, then a space");
    assert.equal(await a.getByRole("listbox", { name: "Members to mention" }).isVisible(), false);
    // Narrowing by what is typed; Olga is in another group and never offered; Escape closes.
    await text.pressSequentially("and @o");
    await a.getByRole("status").filter({ hasText: "No member matches." }).waitFor({ state: "attached" });
    assert.equal(await a.getByRole("listbox", { name: "Members to mention" }).isVisible(), false);
    await text.press("Backspace");
    await text.pressSequentially("ca");
    assert.deepEqual(await offered(a), ["Carol @Carol"]);
    await text.press("Escape");
    assert.equal(await a.getByRole("listbox", { name: "Members to mention" }).isVisible(), false);
    await text.pressSequentially("rol, please.");
    assert.equal(await text.inputValue(), 'Hi @"Bob Baba" and @carol, please.');
    await a.getByRole("button", { name: "Post topic" }).click();
    await a.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
    topicUrl = a.url();
    const links = a.locator(".topic .body a.mention");
    assert.deepEqual(await links.allTextContents(), ['@"Bob Baba"', "@carol"]);
  });

  it("Bob, on a 390 px phone, sees the mention, follows it, and finds his name linked to his page", async () => {
    await signIn(b, `${server.url}/`, "bob@example.com", "bob-pass");
    await b.goto(`${server.url}/m/notifications`);
    const row = b.locator(".notifications .row.unread.mention");
    assert.equal(await row.count(), 1);
    assert.match((await row.textContent()) ?? "", /Alice Aoki mentioned you/);
    await row.getByRole("link", { name: "Who brings cake?" }).click();
    await b.waitForURL(/\/board\/1:\d+$/);
    const link = b.locator(".topic .body").getByRole("link", { name: '@"Bob Baba"' });
    await link.click();
    await b.waitForURL(/\/g\/1:1\/members\/1:\d+$/);
    assert.equal((await b.getByRole("heading", { level: 1 }).textContent())?.trim().startsWith("Bob Baba"), true);
  });

  it("Bob answers in a comment, picking Alice by touch; the list fits the phone; Alice is notified", async () => {
    await b.goto(topicUrl.replace(server.url, `${server.url}/m`));
    const comment = b.getByLabel("Comment", { exact: true });
    await comment.tap();
    await comment.pressSequentially("Me! Thanks @al");
    const list = b.getByRole("listbox", { name: "Members to mention" });
    assert.deepEqual(await offered(b), ['Alice Aoki @"Alice Aoki"']);
    const box = await list.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the list fits 390 px: ${JSON.stringify(box)}`);
    await list.getByRole("option").first().tap();
    assert.equal(await comment.inputValue(), 'Me! Thanks @"Alice Aoki" ');
    await b.getByRole("button", { name: "Post comment" }).click();
    await b.waitForURL(/#comment-1$/);
    assert.deepEqual(await b.locator("#comment-1 a.mention").allTextContents(), ['@"Alice Aoki"']);

    await a.goto(`${server.url}/notifications`);
    const row = a.locator(".notifications .row.unread.mention");
    assert.match((await row.textContent()) ?? "", /Bob Baba mentioned you/);
    await row.getByRole("button", { name: /Mark as read/ }).click();
    assert.equal(await a.locator(".notifications .row.unread.mention").count(), 0, "confirmed");
  });

  it("Alice writes Markdown: Preview shows it, the page renders the list and the link, raw HTML does not run", async () => {
    await a.goto(topicUrl);
    let ran = false;
    a.on("dialog", (dialog) => {
      ran = true;
      void dialog.dismiss();
    });
    const comment = a.getByLabel("Comment", { exact: true });
    const source =
      "Plan:\n\n- **cake**\n- [the shop](https://shop.example/cake)\n\n<img src=x onerror=alert(1)><script>alert(2)</script>";
    await comment.fill(source);
    await a.getByRole("button", { name: "Preview" }).click();
    const preview = a.locator("#comment-text-preview");
    await preview.locator("li").first().waitFor();
    assert.deepEqual(await preview.locator("li").allTextContents(), ["cake", "the shop"]);
    assert.equal(await comment.isVisible(), false, "the field gives way to its preview");
    await a.getByRole("button", { name: "Back to editing" }).click();
    assert.equal(await comment.inputValue(), source, "the text is kept as written");
    await a.getByRole("button", { name: "Post comment" }).click();
    await a.waitForURL(/#comment-2$/);
    const shown = a.locator("#comment-2 .markdown:not(.preview)");
    assert.deepEqual(await shown.locator("li").allTextContents(), ["cake", "the shop"]);
    assert.equal(await shown.locator("strong").textContent(), "cake");
    const link = shown.getByRole("link", { name: "the shop" });
    assert.equal(await link.getAttribute("href"), "https://shop.example/cake");
    assert.equal(await link.getAttribute("rel"), "noopener nofollow");
    assert.equal(await shown.locator("img, script").count(), 0, "no element from the raw HTML");
    assert.match((await shown.textContent()) ?? "", /<script>alert\(2\)<\/script>/, "shown as text");
    assert.equal(ran, false, "no script ran");
  });
});
