// Folders and search in Chromium (issue 31): a manager makes a board folder on the board's
// "Manage folders" page and files a new topic in it, and a files folder; search finds an event and
// a chat message.
// Run by `npm run test:browser`.
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

describe("folders and search in Chromium", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-folders-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    // An event of the group and a chat message, for search to find.
    const kairan = (...args: string[]) => {
      const run = runKairan([...args, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(run.status, 0, run.stderr);
      return JSON.parse(run.stdout) as { id: string };
    };
    kairan(
      "event",
      "add",
      "--group",
      "1:1",
      "--creator",
      "alice@example.com",
      "--title",
      "Giraffe review",
      "--start",
      "2026-12-08T09:00:00Z",
      "--end",
      "2026-12-08T10:00:00Z",
    );
    const room = kairan(
      "chat",
      "room",
      "add",
      "--creator",
      "alice@example.com",
      "--member",
      "bob@example.com",
      "--title",
      "Zoo chat",
    );
    kairan("chat", "say", "--room", room.id, "--author", "alice@example.com", "--text", "giraffe spots counted");
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    page = await (await browser.newContext({ locale: "en-US" })).newPage();
    await signIn(page, `${server.url}/`, "alice@example.com", "alice-pass");
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("a manager makes a board folder and files a topic in it", async () => {
    await page.getByRole("link", { name: "Browser Team" }).click();
    await page.getByRole("link", { name: "Board", exact: true }).first().click();
    await page.getByRole("link", { name: "Manage folders" }).click();
    await page.getByLabel("New folder").fill("Plans 2027");
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.waitForURL(/\/board\/folders$/);
    assert.equal(await page.getByLabel("Folder name").last().inputValue(), "Plans 2027");
    await page.getByRole("link", { name: /Back to Board/ }).click();
    const folders = page.getByRole("navigation", { name: "Folders" });
    assert.equal(await folders.getByRole("link", { name: "Plans 2027" }).count(), 1, "the filter shows it at once");

    await page.getByRole("link", { name: "New topic" }).click();
    await page.getByLabel("Title").fill("Roadmap draft");
    await page.getByLabel("Text").fill("What we plan next year.");
    await page.getByLabel("Folder").selectOption({ label: "Plans 2027" });
    await page.getByRole("button", { name: "Post topic" }).click();
    await page.waitForURL(/\/board\/1:\d+$/);
    await page.goto(page.url().replace(/\/board\/1:\d+$/, "/board"));
    await folders.getByRole("link", { name: "Plans 2027" }).click();
    await page.waitForURL(/folder=1%3A\d+/);
    assert.equal(await page.getByRole("link", { name: "Roadmap draft" }).count(), 1, "filed in the folder");
  });

  it("a manager makes a files folder, and the upload form offers it", async () => {
    await page.goto(page.url().replace(/\/board(\?.*)?$/, "/files"));
    await page.getByRole("link", { name: "Manage folders" }).click();
    await page.getByLabel("New folder").fill("Contracts");
    await page.getByRole("button", { name: "Add folder" }).click();
    await page.waitForURL(/\/files\/folders$/);
    await page.getByRole("link", { name: /Back to Files/ }).click();
    const folders = page.getByRole("navigation", { name: "Folders" });
    assert.equal(await folders.getByRole("link", { name: "Contracts" }).count(), 1);
    assert.equal(await page.locator("select[name=folder] option", { hasText: "Contracts" }).count(), 1);
  });

  it("search finds an event and a chat message, and opens the message in its room", async () => {
    const box = page.getByRole("searchbox", { name: "Search" }).first();
    await box.fill("giraffe");
    await box.press("Enter");
    await page.waitForURL(/\/search\?q=giraffe/);
    const rows = page.locator(".search-results .row");
    assert.equal(await rows.filter({ hasText: "Giraffe review" }).filter({ hasText: "Event" }).count(), 1);
    const message = rows.filter({ hasText: "Chat: Zoo chat" });
    assert.equal(await message.count(), 1);
    assert.equal(await message.locator("mark").first().textContent(), "giraffe");
    await message.getByRole("link").first().click();
    await page.waitForURL(/\/mpChat\/view\?chatRoomId=/);
    // The message as shown (its author's page also holds the text in the closed Edit form).
    assert.equal(await page.locator("#chat-messages .markdown", { hasText: "giraffe spots counted" }).count(), 1);
  });
});
