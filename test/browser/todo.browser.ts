// The ToDo page in Chromium, at desktop width and at 390 px: Alice adds a personal task, marks it
// done, hides what is done, and follows an assigned group task to its group. Against one real
// `kairan serve`. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";
import { openMenu } from "./widths.js";

const SEED = fileURLToPath(new URL("./todo.seed.json", import.meta.url));

async function signIn(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel("E-mail address").fill("alice@example.com");
  await page.getByLabel("Password").fill("alice-pass");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
}

describe("the ToDo page in Chromium, at desktop width and at 390 px", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let contexts: BrowserContext[] = [];

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-todo-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    contexts = [
      await browser.newContext({ locale: "en-US" }),
      await browser.newContext({
        locale: "en-US",
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      }),
    ];
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [index, label] of [
    [0, "desktop"],
    [1, "phone"],
  ] as const) {
    it(`adds a personal task, completes it and sees an assigned group task (${label})`, async () => {
      const page = await contexts[index]!.newPage();
      await signIn(page, server.url);
      await openMenu(page);
      await page.getByRole("link", { name: "ToDo", exact: true }).first().click();
      await page.waitForURL(/\/todo$/);
      const table = page.locator("table.todo");
      await assert.doesNotReject(table.getByRole("link", { name: "Review the release notes" }).waitFor());
      assert.equal(await table.getByText("Bob's own chore").count(), 0, "another person's assignment");
      assert.equal(await table.getByRole("link", { name: "Water the plants" }).count(), 1, "the seeded one");

      const title = `Call the bank (${label})`;
      await page.getByLabel("Title").fill(title);
      await page.getByLabel("Priority").selectOption("A");
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.waitForURL(/\/todo$/);
      const row = table.locator("tr", { has: page.getByRole("link", { name: title }) });
      await assert.doesNotReject(row.waitFor());
      assert.match((await row.textContent()) ?? "", /Personal/);

      await row.getByRole("button", { name: `Mark done: ${title}` }).click();
      await page.waitForURL(/\/todo$/);
      assert.match(
        (await table.locator("tr", { has: page.getByRole("link", { name: title }) }).textContent()) ?? "",
        /Completed/,
      );
      await page.getByLabel("Show").selectOption("open");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/state=open/);
      assert.equal(await table.getByRole("link", { name: title }).count(), 0, "done: hidden");
      if (label === "phone") {
        const width = await page.evaluate<number>("document.documentElement.scrollWidth");
        assert.ok(width <= 390, `no sideways scrolling at 390 px (${width}px wide)`);
      }

      await table.getByRole("link", { name: "Review the release notes" }).click();
      await page.waitForURL(/\/g\/1:\d+\/tasks\/1:\d+$/);
      await assert.doesNotReject(page.getByRole("heading", { name: "Review the release notes" }).waitFor());
      await page.close();
    });
  }
});
