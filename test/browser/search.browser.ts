// Search in Chromium, on a desktop window and on a 390-pixel phone: the box in the header, the
// results page with highlighted excerpts, filters kept in the address. Run by `npm run test:browser`.
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
import { openMenu } from "./widths.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

describe("search in Chromium", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let desktop: Page;
  let phone: Page;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-search-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    desktop = await (await browser.newContext({ locale: "en-US" })).newPage();
    phone = await (
      await browser.newContext({
        locale: "en-US",
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      })
    ).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("finds a topic written a moment ago from the header's box, and opens it", async () => {
    await signIn(desktop, `${server.url}/`, "alice@example.com", "alice-pass");
    await desktop.getByRole("link", { name: "Browser Team" }).click();
    await desktop.getByRole("link", { name: "New topic" }).click();
    await desktop.getByLabel("Title").fill("全文検索のテスト");
    await desktop.getByLabel("Text").fill("日本語の検索テストです。Search works in English too.");
    await desktop.getByRole("button", { name: "Post topic" }).click();
    await desktop.waitForURL(/\/board\/1:\d+$/);
    const topicUrl = desktop.url();

    const box = desktop.getByRole("searchbox", { name: "Search" }).first();
    await box.fill("検索テ");
    await box.press("Enter");
    await desktop.waitForURL(/\/search\?q=/);
    assert.equal(new URL(desktop.url()).searchParams.get("q"), "検索テ");
    assert.match((await desktop.locator(".search-count").textContent()) ?? "", /1 found/);
    assert.equal(await desktop.locator(".search-results mark").first().textContent(), "検索テ");
    await desktop.getByRole("link", { name: "全文検索のテスト" }).click();
    assert.equal(desktop.url(), topicUrl);
  });

  it("filters by kind, keeping the query and the filter in the address", async () => {
    await desktop.goto(`${server.url}/search?q=${encodeURIComponent("search works")}`);
    assert.equal(await desktop.locator(".search-results .row").count(), 1);
    await desktop.getByLabel("Kind").selectOption({ label: "Task" });
    await desktop.getByRole("button", { name: "Search" }).last().click();
    await desktop.waitForURL(/kind=TASK/);
    assert.equal(new URL(desktop.url()).searchParams.get("q"), "search works");
    assert.equal(await desktop.locator(".search-results .row").count(), 0);
    assert.equal(await desktop.getByText("Nothing found.").count(), 1);
  });

  it("works on a 390-pixel phone without scrolling sideways", async () => {
    await signIn(phone, `${server.url}/`, "bob@example.com", "bob-pass");
    await phone.goto(`${server.url}/m`);
    await openMenu(phone);
    const box = phone.getByRole("searchbox", { name: "Search" }).first();
    assert.ok(await box.isVisible());
    await box.fill("English");
    await box.press("Enter");
    await phone.waitForURL(/\/m\/search\?q=English/);
    assert.equal(await phone.locator(".search-results .row").count(), 1);
    const width = await phone.evaluate<number>("document.documentElement.scrollWidth");
    assert.ok(width <= 390, `the page is ${width} pixels wide`);
  });
});
