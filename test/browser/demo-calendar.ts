// What the calendar's browser tests share: one real `kairan serve` with the demo workspace, Alice
// signed in at desktop width, and the month grid read by day.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, contextAt } from "./widths.js";

/** A demo server with Alice signed in; `close` ends the browser, the server and its data. */
export interface DemoSession {
  readonly server: ServerProcess;
  readonly page: Page;
  close(): Promise<void>;
}

export async function openDemoSession(prefix: string): Promise<DemoSession> {
  const browser: Browser = await launchChromium();
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
  const context: BrowserContext = await contextAt(browser, DESKTOP, { bypassCSP: true, locale: "en-US" });
  const page = await context.newPage();
  await page.goto(`${server.url}/signin`);
  await page.getByLabel("E-mail address").fill("alice@example.com");
  await page.getByLabel("Password").fill("kairan-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/signin"));
  return {
    server,
    page,
    async close() {
      await context.close();
      await browser.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The titles of the month grid's cell of `date`. */
export async function cellTitles(page: Page, date: string): Promise<string[]> {
  return page.locator(`td[data-date="${date}"] .cal-title`).allTextContents();
}

/** axe finds no serious or critical violation on the page as it is. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], what);
}
