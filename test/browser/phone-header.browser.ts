// The header on a phone (issue 31): below 600 px it shows the site's name, the unread badge and a
// Menu button that opens the main links, the search box and signing out; the keyboard opens and
// closes it (Escape goes back to the button) and the skip link still comes first; without
// JavaScript a Menu link opens the same list. A desktop window shows everything, no button.
// Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, PHONE, type Width, contextAt } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("the header on a phone: a Menu button below 600 px", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-phone-header-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function signedIn(width: Width, extra: BrowserContextOptions = {}): Promise<Page> {
    const page = await (await contextAt(browser, width, { bypassCSP: true, ...extra })).newPage();
    const english = (extra.locale ?? "en-US").startsWith("en");
    await page.goto(`${server.url}/signin`);
    await page.locator("#email").fill("alice@example.com");
    await page.locator("input[type=password]").first().fill("alice-pass");
    await page.getByRole("button", { name: english ? "Sign in" : "ログイン", exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    return page;
  }

  it("folds the links, the search box and signing out behind a button the keyboard opens and closes", async () => {
    const page = await signedIn(PHONE);
    const header = await page.locator(".site-header").boundingBox();
    assert.ok(header && header.height <= 80, `the header is ${header?.height} px tall`);
    const menu = page.getByRole("button", { name: "Menu", exact: true });
    const nav = page.getByRole("navigation", { name: "Main" });
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    assert.equal(await menu.getAttribute("aria-controls"), "site-menu");
    assert.equal(await nav.isVisible(), false);
    assert.equal(await page.getByRole("searchbox", { name: "Search" }).isVisible(), false);

    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate("document.activeElement.className"), "skip-link", "the skip link first");
    assert.equal(await page.getByRole("link", { name: "Skip to content" }).isVisible(), true);

    await menu.focus();
    await page.keyboard.press("Enter");
    assert.equal(await menu.getAttribute("aria-expanded"), "true");
    assert.equal(await nav.isVisible(), true);
    assert.equal(await page.getByRole("searchbox", { name: "Search" }).isVisible(), true);
    assert.equal(await page.getByRole("button", { name: "Sign out" }).isVisible(), true);
    assert.deepEqual(await seriousViolations(page), [], "the open menu");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate("document.activeElement.textContent"), "My groups", "then into the links");
    await page.keyboard.press("Escape");
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    assert.equal(await nav.isVisible(), false);
    assert.equal(await page.evaluate("document.activeElement.className"), "menu-toggle", "back on the button");

    await menu.click();
    await nav.getByRole("link", { name: "Favorites" }).click();
    await page.waitForURL(/\/favorites$/);
    assert.equal(await nav.isVisible(), false, "closed on the next page");
    await page.context().close();
  });

  it("shows the unread badge beside the button, a link to the notifications, live", async () => {
    const page = await signedIn(PHONE, { locale: "ja-JP" });
    const badge = page.locator(".header-badge");
    assert.equal(await badge.isVisible(), false, "nothing unconfirmed, no badge");
    const bob = await (await contextAt(browser, DESKTOP)).newPage();
    await bob.goto(`${server.url}/signin`);
    await bob.getByLabel("E-mail address").fill("bob@example.com");
    await bob.getByLabel("Password").fill("bob-pass");
    await bob.getByRole("button", { name: "Sign in", exact: true }).click();
    await bob.waitForURL(`${server.url}/`);
    await bob.goto(`${server.url}/g/1:1/board/new`);
    await bob.getByLabel("Title").fill("Lunch on Friday");
    await bob.getByRole("button", { name: "Post topic" }).click();
    await bob.waitForURL(/\/board\/1:\d+$/);
    await badge.waitFor({ state: "visible", timeout: 10_000 });
    const link = page.getByRole("link", { name: "通知: 未確認 1 件", exact: true });
    assert.equal(await link.isVisible(), true, "named in the page's language, kept live");
    assert.equal(await page.getByRole("navigation", { name: "メイン" }).isVisible(), false, "the menu stays closed");
    await link.click();
    await page.waitForURL(/\/notifications$/);
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole("button", { name: "表示中の通知をすべて確認済みにする" }).click();
    await badge.waitFor({ state: "hidden", timeout: 10_000 });
    await bob.context().close();
    await page.context().close();
  });

  it("opens the list without JavaScript, with a Menu link", async () => {
    const page = await signedIn(PHONE, { javaScriptEnabled: false });
    const nav = page.getByRole("navigation", { name: "Main" });
    assert.equal(await nav.isVisible(), false);
    assert.equal(await page.getByRole("button", { name: "Menu" }).count(), 0, "no button that would do nothing");
    await page.getByRole("link", { name: "Menu", exact: true }).click();
    assert.equal(await nav.isVisible(), true);
    await nav.getByRole("link", { name: "Favorites" }).click();
    await page.waitForURL(/\/favorites$/);
    await page.context().close();
  });

  it("keeps the whole header on a desktop window, without the button", async () => {
    const page = await signedIn(DESKTOP, { locale: "ja-JP" });
    assert.equal(await page.getByRole("navigation", { name: "メイン" }).isVisible(), true);
    assert.equal(await page.locator(".menu-toggle").isVisible(), false);
    assert.equal(await page.locator(".header-badge").isVisible(), false);
    assert.deepEqual(await seriousViolations(page), []);
    await page.context().close();
  });
});
