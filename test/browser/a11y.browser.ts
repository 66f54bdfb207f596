// Accessibility of every page, in Chromium with axe-core: 0 serious or critical violations. The
// signed-in pages are found by crawling from the home page as a member and as a manager of the
// demo workspace (so a page added later is checked without being listed here); the signed-out
// pages (sign-in, errors, the OAuth approval pages) are opened directly. Both at desktop width and
// at 390 px. Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { crawl } from "../support/crawl.js";
import { temporaryToken } from "../support/oauth.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";
import { DESKTOP, type Width, contextAt, itAtWidths, overflow, pagesFor } from "./widths.js";

/** The demo workspace's people: Alice manages the group, Bob is a member. */
const MANAGER = "alice@example.com";
const MEMBER = "bob@example.com";
const DEMO_PASSWORD = "kairan-demo";
const DEMO_APP = { key: "demo-key", secret: "demo-secret" };

/**
 * Every kind of page once, in a bounded time: pages of one kind share a template, so a second
 * one adds axe's cost (about a second a page on a busy machine), not a check.
 */
const LIMITS = { pages: 120, perPattern: 1 };

/** Pages no link leads to but people reach: mistyped and stale addresses, someone else's group. */
const SIGNED_IN_EXTRAS = [
  "/no-such-page",
  "/g/1:999/board",
  "/g/1:1/board/1:999999",
  "/g/1:1/tasks/1:999999",
  // The calendar's views and forms (the crawl may stop at the month view).
  "/g/1:1/events?view=week",
  "/g/1:1/events?view=members",
  "/g/1:1/events?view=day",
  "/g/1:1/events?view=list",
  "/g/1:1/events/new",
  "/g/1:1/events/lists",
  // The folder pages of the board, tasks and files (linked from each list, for those who manage them).
  "/g/1:1/board/folders",
  "/g/1:1/tasks/folders",
  "/g/1:1/files/folders",
  // A group's audit log (its managers'; linked from the members page).
  "/g/1:1/audit",
  "/schedule?view=week",
  "/schedule?view=list",
  "/schedule/new",
  // Chat, the address book and the ToDo list, reached from the header whatever the crawl's budget.
  "/mpChat",
  "/mpChat/view?chatRoomId=1%231",
  "/address-book",
  "/todo",
  // The administration (Alice administers the demo site; Bob meets its refusal).
  "/admin",
  "/admin/users",
  "/admin/users/new",
  "/admin/users/1:2",
  "/admin/apps",
  "/admin/apps/new",
  "/admin/apps/1",
  "/admin/settings",
  "/admin/audit",
  "/admin/groups",
  "/admin/import",
  "/admin/groups/new",
  "/admin/groups/1:1",
  "/admin/status",
];

describe("accessibility: axe-core finds no serious or critical violation on any page", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-a11y-"));
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--log-level", "warn"]);
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * Opens `url` and asserts it is no server fault, axe finds nothing serious, and the page does
   * not scroll sideways (at 390 px too); returns its status and links for the crawl.
   */
  async function check(page: Page, url: string): Promise<{ status: number; links: string[] }> {
    const answer = await page.goto(url);
    const status = answer?.status() ?? 0;
    assert.ok(status > 0 && status < 500, `${url} answered ${status}`);
    const violations = await seriousViolations(page);
    assert.deepEqual(violations, [], `${url}:\n${violations.join("\n")}`);
    assert.equal(await overflow(page), 0, `${url} scrolls sideways`);
    const links = await page.evaluate<string[]>(`[...document.querySelectorAll("a[href]")].map((a) => a.href)`);
    return { status, links };
  }

  async function signIn(page: Page, width: Width, email: string): Promise<void> {
    await page.goto(`${server.url}${pagesFor(width)}/signin`);
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.endsWith("/signin"));
  }

  async function crawlAs(width: Width, email: string): Promise<void> {
    const context = await contextAt(browser, width, { bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, width, email);
    const start = `${server.url}${pagesFor(width) || "/"}`;
    const visited = await crawl(start, (url) => check(page, url), LIMITS);
    // The demo workspace has a board, topics, tasks, files, members, notifications and settings:
    // a crawl that found few pages lost its way (signed out, or the links went missing).
    assert.ok(visited.length >= 15, `only ${visited.length} pages reached:\n${visited.join("\n")}`);
    for (const path of SIGNED_IN_EXTRAS) await check(page, `${server.url}${path}`);
    await context.close();
  }

  it("finds a violation where there is one: the check itself can fail", async () => {
    const context = await contextAt(browser, DESKTOP, { bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.url}/signin`);
    assert.deepEqual(await seriousViolations(page), [], "the page as served");
    await page.evaluate(`document.querySelector("main").insertAdjacentHTML("beforeend",
      '<img src="/static/none.png"><p style="color:#bbb;background:#fff">faint</p>')`);
    const found = (await seriousViolations(page)).map((line) => line.split(":")[0]);
    assert.deepEqual(found.sort(), ["critical image-alt", "serious color-contrast"]);
    await context.close();
  });

  itAtWidths("signed out: sign-in, error and OAuth approval pages", async (width) => {
    const context = await contextAt(browser, width, { bypassCSP: true });
    const page = await context.newPage();
    for (const path of ["/signin", "/m/signin", "/no-such-page", "/oauth/authorize?oauth_token=unknown"])
      await check(page, `${server.url}${path}`);
    await page.goto(`${server.url}/signin`);
    await page.getByLabel("E-mail address").fill(MEMBER);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the sign-in page with its error");

    const authorize = `${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(await temporaryToken(server.url, DEMO_APP))}`;
    await check(page, authorize);
    await page.getByLabel("E-mail address").fill(MEMBER);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.getByRole("alert").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the authorize page with its error");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Approve" }).click();
    await page.locator("#oauth_verifier").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the out-of-band verifier page");

    await page.goto(
      `${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(await temporaryToken(server.url, DEMO_APP))}`,
    );
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByRole("heading", { name: "Access denied" }).waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the denied page");
    await context.close();
  });

  itAtWidths("pages that answer a form: a refused topic, a refused comment, a token shown once", async (width) => {
    const context = await contextAt(browser, width, { bypassCSP: true });
    const page = await context.newPage();
    await signIn(page, width, MANAGER);
    const prefix = pagesFor(width);
    // The browser would not send an empty title; a script or an old browser does.
    await page.goto(`${server.url}${prefix}/g/1:1/board/new`);
    await page.locator("#topic-title").evaluate((input) => input.removeAttribute("required"));
    await page.getByRole("button", { name: "Post topic" }).click();
    await page.locator("#form-error").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the topic form with its error");

    await page.goto(`${server.url}${prefix}/g/1:1/board/1:1`);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Post comment" }).click(),
    ]);
    assert.equal(refused.status(), 400, "an empty comment is refused");
    await page.waitForLoadState();
    assert.deepEqual(await seriousViolations(page), [], "the refused comment");

    await page.goto(`${server.url}${prefix}/settings`);
    await page.getByLabel("Label").fill(`a11y ${width.name}`);
    await page.getByRole("button", { name: "Create token" }).click();
    await page.locator("#new-token").waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the new token, shown once");
    assert.equal(await overflow(page), 0, "the token page does not scroll sideways");
    await context.close();
  });

  itAtWidths("signed in as a member: every page reached from the home page", (width) => crawlAs(width, MEMBER));

  itAtWidths("signed in as a manager: every page reached from the home page", (width) => crawlAs(width, MANAGER));
});
