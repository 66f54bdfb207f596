// Issue #31 in Chromium: the header's count equals the API's unconfirmed notifications for a new
// member, follows confirmations made in another browser without a reload, and a Tokyo browser
// sees an event at 00:30 UTC at 09:30, its zone taken at the first sign-in.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { seriousViolations } from "./axe.js";
import { launchChromium } from "./chromium.js";

const SEED = fileURLToPath(new URL("./seed.json", import.meta.url));

async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
}

/** The header's notification count as shown (0 when hidden). */
async function badge(page: Page): Promise<number> {
  const count = page.locator('.site-nav [data-unread="notifications"]');
  if (await count.isHidden()) return 0;
  return Number(await count.locator('span[aria-hidden="true"]').textContent());
}

/** Waits until the header of `page` (not reloaded) shows `n`. */
async function badgeBecomes(page: Page, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await badge(page)) !== n) {
    assert.ok(Date.now() < deadline, `the badge shows ${await badge(page)}, not ${n}`);
    await page.waitForTimeout(100);
  }
}

describe("in Chromium: unread counts across browsers, and the reader's time zone", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let alice: Page;
  let bobTokyo: Page;
  let bobElsewhere: Page;
  let bobToken: string;

  /** What `GET /api/notification/V2?unconfirmed=true` lists for Bob. */
  async function apiCount(): Promise<number> {
    const answer = await fetch(`${server.url}/api/notification/V2?unconfirmed=true&max-results=100`, {
      headers: { authorization: `Bearer ${bobToken}` },
    });
    assert.equal(answer.status, 200);
    return ((await answer.text()).match(/<entry>/g) ?? []).length;
  }

  async function alicePosts(title: string): Promise<void> {
    await alice.goto(`${server.url}/g/1:1/board/new`);
    await alice.getByLabel("Title").fill(title);
    await alice.getByRole("button", { name: "Post topic" }).click();
    await alice.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
  }

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-unread-browser-"));
    const run = (args: string[]) => {
      const done = runKairan([...args, "--data", dataDir, "--log-level", "silent"]);
      assert.equal(done.status, 0, done.stderr);
      return done.stdout;
    };
    run(["seed", SEED]);
    run(["app", "add", "--name", "Counter", "--level", "read", "--key", "counter-key", "--secret", "counter-secret"]);
    bobToken =
      /token: +(\S+)/.exec(run(["token", "add", "--user", "bob@example.com", "--app", "counter-key"]))?.[1] ?? "";
    assert.ok(bobToken);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    for (const timezoneId of ["UTC", "Asia/Tokyo", "Europe/Berlin"])
      // bypassCSP: axe-core is injected as a script tag (the pages allow only their own scripts).
      contexts.push(await browser.newContext({ locale: "en-US", timezoneId, bypassCSP: true }));
    [alice, bobTokyo, bobElsewhere] = (await Promise.all(contexts.map((context) => context.newPage()))) as [
      Page,
      Page,
      Page,
    ];
    await signIn(alice, server.url, "alice@example.com", "alice-pass");
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows a new member the API's count, live as notifications arrive", async () => {
    await signIn(bobTokyo, server.url, "bob@example.com", "bob-pass");
    assert.equal(await badge(bobTokyo), 0);
    assert.equal(await apiCount(), 0);
    await alicePosts("Kick-off");
    await alicePosts("Budget");
    await badgeBecomes(bobTokyo, 2);
    assert.equal(await apiCount(), 2, "the badge says what the API lists");
    await bobTokyo.reload();
    assert.equal(await badge(bobTokyo), 2, "and so does the page as served");
  });

  it("offers Bob's other browser its zone, and drops the count there when he confirms elsewhere", async () => {
    await signIn(bobElsewhere, server.url, "bob@example.com", "bob-pass");
    const offer = bobElsewhere.getByRole("region", { name: "Time zone" });
    assert.match(
      (await offer.textContent()) ?? "",
      /Your browser is in the time zone Europe\/Berlin; this site shows you times in Asia\/Tokyo\./,
    );
    assert.deepEqual(await seriousViolations(bobElsewhere), [], "the page with the offer");
    await offer.getByRole("button", { name: "Keep Asia/Tokyo" }).click();
    await bobElsewhere.waitForURL(`${server.url}/`);
    assert.equal(await bobElsewhere.getByRole("region", { name: "Time zone" }).count(), 0);
    assert.equal(await badge(bobElsewhere), 2);
    await bobElsewhere.goto(`${server.url}/notifications`);
    await bobElsewhere
      .locator(".notifications .row.unread")
      .first()
      .getByRole("button", { name: "Mark as read" })
      .click();
    await bobElsewhere.waitForLoadState();
    await badgeBecomes(bobTokyo, 1);
    assert.equal(await apiCount(), 1);
    await badgeBecomes(bobElsewhere, 1);
    await bobElsewhere.getByRole("button", { name: "Mark all shown as read" }).click();
    await bobElsewhere.waitForLoadState();
    await badgeBecomes(bobTokyo, 0);
    assert.equal(await apiCount(), 0);
  });

  it("shows the Tokyo browser an event at 00:30 UTC at 09:30, naming the zone", async () => {
    await alice.goto(`${server.url}/g/1:1/events/new?date=2030-05-01`);
    await alice.getByLabel("Title", { exact: true }).fill("Stand-up");
    await alice.locator("#event-start-time").fill("00:30");
    await alice.locator("#event-end-time").fill("00:45");
    await alice.getByLabel("Time zone", { exact: true }).fill("UTC");
    await alice.getByRole("button", { name: "Add event" }).click();
    await alice.waitForURL(/\/g\/1:1\/events\/1:\d+$/);
    const when = (await alice.locator("#event-when").textContent()) ?? "";
    assert.match(when, /12:30 AM[\s\S]*12:45 AM \(UTC\)/, "Alice, in UTC since her first sign-in");
    await bobTokyo.goto(alice.url());
    const tokyo = (await bobTokyo.locator("#event-when").textContent()) ?? "";
    assert.match(tokyo, /May 1, 2030, 9:30 AM – May 1, 2030, 9:45 AM \(Asia\/Tokyo\)/);
    assert.match(tokyo, /In the event's time zone: .*12:30 AM .*\(UTC\)/);
    await bobTokyo.goto(`${server.url}/g/1:1/events?view=week&date=2030-05-01`);
    assert.match((await bobTokyo.locator("main").textContent()) ?? "", /Times in Asia\/Tokyo/);
  });
});
