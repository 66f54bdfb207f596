// The calendar addresses of the settings page in Chromium, on the desktop and on a 390 px phone:
// made and shown once (an address as long as it is fits the phone's width), renewed after the
// confirmation (the old address stops at once; a dismissed confirmation changes nothing) and
// revoked. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

const VARIANTS = [
  { name: "desktop", base: "", context: { viewport: { width: 1280, height: 900 } } },
  {
    name: "390 px phone",
    base: "/m",
    context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  },
] as const;

async function noSidewaysScrolling(page: Page, width: number): Promise<void> {
  const scrolled = await page.evaluate<number>("document.documentElement.scrollWidth");
  assert.ok(scrolled <= width, `no sideways scrolling (page is ${scrolled}px wide, window ${width}px)`);
}

for (const variant of VARIANTS) {
  describe(`calendar addresses in Chromium (${variant.name})`, () => {
    let browser: Browser;
    let dataDir: string;
    let server: ServerProcess;
    let page: Page;
    let address = "";
    const url = (path: string) => `${server.url}${variant.base}${path}`;
    const status = async (target: string) => (await fetch(target)).status;

    before(async () => {
      browser = await launchChromium();
      dataDir = mkdtempSync(join(tmpdir(), "kairan-calendar-browser-"));
      const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(seeded.status, 0, seeded.stderr);
      server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
      // The page's CSP refuses inline scripts: bypassed so that axe-core can be injected.
      const context = await browser.newContext({ ...variant.context, locale: "en-US", bypassCSP: true });
      page = await context.newPage();
      await page.goto(url("/"));
      await page.getByLabel("E-mail address").fill("alice@example.com");
      await page.getByLabel("Password").fill("alice-pass");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(url("/") === `${server.url}/m/` ? /\/m\/?$/ : `${server.url}/`);
    });
    after(async () => {
      await browser?.close();
      await server?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it("makes the addresses and shows them once; the calendar application's request is served", async () => {
      await page.goto(url("/settings"));
      const section = page.locator("#calendar");
      assert.match((await section.textContent()) ?? "", /You have no calendar address\./);
      await section.getByRole("button", { name: "Make calendar addresses" }).click();
      await page.locator("#calendar-mine").waitFor();
      address = (await page.locator("#calendar-mine").textContent()) ?? "";
      assert.match(address, /\/ical\/[A-Za-z0-9_-]{32}\/me\.ics$/);
      assert.match((await page.locator(".calendar-group").first().textContent()) ?? "", /\/group\/1:1\.ics$/);
      await noSidewaysScrolling(page, variant.context.viewport.width);
      assert.deepEqual(await seriousViolations(page), [], "axe: the addresses page");
      const answer = await fetch(address);
      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get("content-type"), "text/calendar; charset=utf-8");
      await page
        .getByRole("link", { name: /Settings/ })
        .last()
        .click();
      await page.waitForURL(/\/settings#calendar$/);
      assert.ok(!(await page.content()).includes(address), "not shown again");
      assert.deepEqual(await seriousViolations(page), [], "axe: the settings page with addresses");
    });

    it("renews only once the confirmation is accepted; the old address stops at once", async () => {
      await page.goto(url("/settings"));
      page.once("dialog", (dialog) => void dialog.dismiss());
      await page.locator("#calendar").getByRole("button", { name: "Renew addresses" }).click();
      assert.equal(await page.locator("#calendar-mine").count(), 0, "dismissed: still the settings page");
      assert.equal(await status(address), 200);
      page.once("dialog", (dialog) => void dialog.accept());
      await page.locator("#calendar").getByRole("button", { name: "Renew addresses" }).click();
      await page.locator("#calendar-mine").waitFor();
      const renewed = (await page.locator("#calendar-mine").textContent()) ?? "";
      assert.notEqual(renewed, address);
      assert.equal(await status(address), 404);
      assert.equal(await status(renewed), 200);
      address = renewed;
    });

    it("revokes after the confirmation: the address answers 404 and the page offers new ones", async () => {
      await page.goto(url("/settings"));
      page.once("dialog", (dialog) => void dialog.accept());
      await page.locator("#calendar").getByRole("button", { name: "Revoke addresses" }).click();
      await page.waitForURL(/\/settings#calendar$/);
      assert.match((await page.locator("#calendar").textContent()) ?? "", /You have no calendar address\./);
      assert.equal(await status(address), 404);
    });
  });
}
