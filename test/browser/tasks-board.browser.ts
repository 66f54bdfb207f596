// Tasks, the board's filing and trash, and the edit lease in Chromium, each flow at desktop width
// (Alice, in Tokyo) and at 390 px (Bob, on a phone, in Berlin), against one real `kairan serve`.
// Run by `npm run test:browser`.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type ServerProcess, runKairan, startServerProcess } from "../support/cli.js";
import { launchChromium } from "./chromium.js";

const SEED = fileURLToPath(new URL("./tasks-board.seed.json", import.meta.url));

/** One person at one width. */
interface Person {
  readonly label: "desktop" | "phone";
  readonly name: string;
  readonly page: Page;
  /** The time zone the person chooses on the account page (pages and due times use it). */
  readonly zone: string;
  /** Where 09:30 on the person's clock is, on 2030-05-01, in UTC. */
  readonly nineThirtyUtc: string;
}

/** Chooses the person's time zone on the account page, as they would before writing due times. */
async function chooseZone(page: Page, base: string, zone: string): Promise<void> {
  await page.goto(`${base}/account`);
  await page.getByLabel("Time zone", { exact: true }).selectOption(zone);
  await page.getByRole("button", { name: "Save language and time zone" }).click();
  await page.waitForURL(/saved=preferences/);
}

async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/signin`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
}

async function assertNoSidewaysScroll(person: Person): Promise<void> {
  if (person.label !== "phone") return;
  const width = await person.page.evaluate<number>("document.documentElement.scrollWidth");
  assert.ok(width <= 390, `no sideways scrolling at 390 px on ${person.page.url()} (${width}px wide)`);
}

async function newTopic(page: Page, base: string, title: string, body: string): Promise<string> {
  await page.goto(`${base}/g/1:1/board/new`);
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Text").fill(body);
  await page.getByLabel("Every member may edit (shared editing)").check();
  await page.getByRole("button", { name: "Post topic" }).click();
  await page.waitForURL(/\/g\/1:1\/board\/1:\d+$/);
  return page.url();
}

describe("tasks, the board's trash and the edit lease in Chromium, at desktop width and at 390 px", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let alice: Person;
  let bob: Person;

  before(async () => {
    browser = await launchChromium();
    dataDir = mkdtempSync(join(tmpdir(), "kairan-browser-"));
    const seeded = runKairan(["seed", SEED, "--data", dataDir, "--log-level", "silent"]);
    assert.equal(seeded.status, 0, seeded.stderr);
    server = await startServerProcess(["--port", "0", "--data", dataDir, "--no-demo", "--log-level", "warn"]);
    const desktop = await browser.newContext({ locale: "en-US", timezoneId: "Asia/Tokyo" });
    const phone = await browser.newContext({
      locale: "en-US",
      timezoneId: "Europe/Berlin",
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    contexts = [desktop, phone];
    alice = {
      label: "desktop",
      name: "Alice Aoki",
      page: await desktop.newPage(),
      zone: "Asia/Tokyo",
      nineThirtyUtc: "2030-05-01T00:30:00Z",
    };
    bob = {
      label: "phone",
      name: "Bob Baba",
      page: await phone.newPage(),
      zone: "Europe/Berlin",
      nineThirtyUtc: "2030-05-01T07:30:00Z",
    };
    await signIn(alice.page, server.url, "alice@example.com", "alice-pass");
    await signIn(bob.page, server.url, "bob@example.com", "bob-pass");
    for (const person of [alice, bob]) await chooseZone(person.page, server.url, person.zone);
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [who, other] of [
    ["alice", "bob"],
    ["bob", "alice"],
  ] as const) {
    const people = () => ({ x: who === "alice" ? alice : bob, y: other === "alice" ? alice : bob });

    it(`${who}: opening the edit page leaves the topic free; Edit takes the lease, typing renews it, Save ends it`, async () => {
      const { x, y } = people();
      const url = await newTopic(x.page, server.url, `Lease (${x.label})`, "v1");
      await x.page.goto(`${url}/edit`);
      assert.equal(await x.page.getByRole("heading", { level: 1 }).textContent(), "Edit topic");
      assert.equal(await x.page.locator("#topic-form").count(), 0, "a GET shows the Edit button, not the form");
      await assertNoSidewaysScroll(x);
      await y.page.goto(url);
      assert.equal(await y.page.locator("#edited-by").count(), 0, "the GET left the topic free");
      await y.page.getByRole("button", { name: "Edit", exact: true }).click();
      await y.page.getByLabel("Title").waitFor();
      await y.page.getByRole("button", { name: "Cancel" }).click();
      await y.page.waitForURL(url);

      await x.page.getByRole("button", { name: "Edit", exact: true }).click();
      await x.page.waitForURL(`${url}/edit`);
      const renewed = x.page.waitForResponse((r) => r.url().endsWith("/lease") && r.request().method() === "POST");
      await x.page.getByLabel("Text").fill("v2, typed");
      const answer = await renewed;
      assert.equal(answer.status(), 204);
      const until = await answer.headerValue("x-lease-until");
      await x.page.waitForFunction(
        `document.querySelector("#lease-note time")?.getAttribute("datetime") === ${JSON.stringify(until)}`,
      );
      assert.doesNotMatch(
        (await x.page.locator("#lease-note time").textContent()) ?? "",
        /UTC/,
        "in the reader's zone",
      );
      await assertNoSidewaysScroll(x);

      await y.page.goto(url);
      assert.match(
        (await y.page.locator("#edited-by").textContent()) ?? "",
        new RegExp(`${x.name} is editing this topic until`),
      );
      await y.page.getByRole("button", { name: "Edit", exact: true }).click();
      assert.equal(await y.page.getByRole("heading", { level: 1 }).textContent(), "This topic cannot be edited now");

      await x.page.getByRole("button", { name: "Save" }).click();
      await x.page.waitForURL(url);
      assert.match((await x.page.locator(".topic .body").textContent()) ?? "", /v2, typed/);
      await y.page.goto(url);
      await y.page.getByRole("button", { name: "Edit", exact: true }).click();
      await y.page.getByLabel("Title").waitFor();
      await y.page.getByRole("button", { name: "Cancel" }).click();
      await y.page.waitForURL(url);
    });

    it(`${who}: links in a topic, filing it, the trash and deleting for good, and asking before a comment goes`, async () => {
      const { x } = people();
      const title = `Trash me (${x.label})`;
      const url = await newTopic(x.page, server.url, title, "Read https://example.com/guide.\nSecond line");
      const link = x.page.locator(".topic .body a");
      assert.equal(await link.getAttribute("href"), "https://example.com/guide");
      assert.equal(await link.getAttribute("rel"), "noopener nofollow");
      assert.match(await x.page.locator(".topic .body").innerText(), /guide\.\nSecond line/, "line break kept");

      await x.page.getByLabel("Comment", { exact: true }).fill("See http://example.org/a_(b) too");
      await x.page.getByRole("button", { name: "Post comment" }).click();
      await x.page.waitForURL(/#comment-1$/);
      assert.equal(
        await x.page.locator("#comment-1 .markdown:not(.preview) a").getAttribute("href"),
        "http://example.org/a_(b)",
      );
      await x.page.locator("#comment-1 summary", { hasText: "Delete" }).click();
      const yes = x.page.getByRole("button", { name: "Yes, delete" });
      await yes.waitFor();
      assert.equal(await x.page.locator("#comment-1").count(), 1, "opening the question deletes nothing");
      await assertNoSidewaysScroll(x);
      await yes.click();
      await x.page.waitForURL(/#comments$/);
      assert.equal(await x.page.locator("#comment-1").count(), 0);

      await x.page.getByLabel("Move to folder").selectOption({ label: "News" });
      await x.page.getByRole("button", { name: "Move", exact: true }).click();
      await x.page.waitForURL(url);
      assert.equal(await x.page.locator(".item-head a.tag").textContent(), "News");
      await x.page.getByRole("button", { name: "Move to trash" }).click();
      await x.page.getByText("This topic is in the trash.").waitFor();
      await x.page.goto(`${server.url}/g/1:1/board`);
      assert.equal(await x.page.getByRole("link", { name: title }).count(), 0, "gone from the board");
      await x.page.getByRole("link", { name: "Trash" }).click();
      await x.page.getByRole("link", { name: title }).click();
      await x.page.getByRole("button", { name: "Restore" }).click();
      await x.page.waitForURL(url);
      assert.equal(await x.page.getByText("This topic is in the trash.").count(), 0);
      await x.page.getByRole("button", { name: "Move to trash" }).click();
      await x.page.locator("summary", { hasText: "Delete for good" }).click();
      await x.page.getByRole("button", { name: "Yes, delete for good" }).click();
      await x.page.waitForURL(/\/board\?folder=TRASH$/);
      assert.equal(await x.page.getByRole("link", { name: title }).count(), 0, "deleted for good");
      assert.equal((await x.page.goto(url))?.status(), 404);
    });

    it(`${who}: adds a task with every field, edits it, marks it done from the filtered list, reopens it, trashes and deletes it`, async () => {
      const { x, y } = people();
      const p = x.page;
      const title = `Write the guide (${x.label})`;
      await p.goto(`${server.url}/g/1:1/tasks`);
      await p.getByRole("link", { name: "New task" }).click();
      await p.getByLabel("Title").fill(title);
      await p.getByLabel("Details").fill("Steps:\nhttps://example.com/spec");
      await p.getByLabel("Assignee").selectOption({ label: y.name });
      await p.getByLabel("State").selectOption({ label: "In progress" });
      await p.getByLabel("Priority").selectOption("S");
      await p.getByLabel("Folder").selectOption({ label: "Sprint" });
      await p.getByLabel("Date").fill("2030-05-01");
      await p.getByLabel("Time (optional)").fill("09:30");
      await assertNoSidewaysScroll(x);
      await p.getByRole("button", { name: "Add task" }).click();
      await p.waitForURL(/\/g\/1:1\/tasks\/1:\d+$/);
      const taskUrl = p.url();
      const facts = await p.locator(".facts").innerText();
      for (const fact of ["In progress", y.name, "S", "Sprint"]) assert.ok(facts.includes(fact), `${fact} in ${facts}`);
      assert.equal(
        await p.locator(".facts time").getAttribute("datetime"),
        x.nineThirtyUtc,
        "09:30 on the person's clock",
      );
      assert.equal(await p.locator(".task .body a").getAttribute("href"), "https://example.com/spec");

      await p.getByRole("link", { name: "Edit", exact: true }).click();
      assert.equal(await p.getByLabel("Time (optional)").inputValue(), "09:30", "shown back on the person's clock");
      assert.equal(await p.getByLabel("Date").inputValue(), "2030-05-01");
      await p.getByLabel("Title").fill(`${title} v2`);
      await p.getByRole("button", { name: "Save" }).click();
      await p.waitForURL(taskUrl);
      assert.equal(await p.getByRole("heading", { level: 1 }).textContent(), `${title} v2`);

      await p.goto(`${server.url}/g/1:1/tasks?state=NOT_COMPLETED`);
      await assertNoSidewaysScroll(x);
      await p.getByRole("button", { name: `Mark done: ${title} v2` }).click();
      await p.waitForURL(/\/tasks\?state=NOT_COMPLETED$/);
      assert.equal(await p.getByRole("link", { name: `${title} v2` }).count(), 0, "the filter is kept and hides it");
      await p.goto(`${server.url}/g/1:1/tasks?state=COMPLETED`);
      await p.getByRole("link", { name: `${title} v2` }).click();
      await p.getByRole("button", { name: "Reopen" }).click();
      await p.waitForURL(taskUrl);
      assert.match(await p.locator(".facts").innerText(), /Not started/);

      await p.getByRole("button", { name: "Move to trash" }).click();
      await p.getByText("This task is in the trash.").waitFor();
      await p.getByRole("button", { name: "Restore" }).click();
      await p.getByRole("button", { name: "Move to trash" }).click();
      await p.locator("summary", { hasText: "Delete for good" }).click();
      await p.getByRole("button", { name: "Yes, delete for good" }).click();
      await p.waitForURL(/\/tasks\?folder=TRASH$/);
      assert.equal((await p.goto(taskUrl))?.status(), 404);
    });

    it(`${who}: sees overdue tasks marked in words, and the members' tags at their own width`, async () => {
      const { x } = people();
      const p = x.page;
      const title = `Late report (${x.label})`;
      await p.goto(`${server.url}/g/1:1/tasks/new`);
      await p.getByLabel("Title").fill(title);
      await p.getByLabel("Date").fill("2020-01-15");
      await p.getByRole("button", { name: "Add task" }).click();
      await p.waitForURL(/\/tasks\/1:\d+$/);
      assert.equal(await p.locator(".facts .badge-overdue").textContent(), "Overdue");
      await p.goto(`${server.url}/g/1:1/tasks`);
      const row = p.locator("tr", { hasText: title });
      assert.equal(await row.locator(".badge-overdue").textContent(), "Overdue");
      assert.equal(await row.locator(".badge-overdue").isVisible(), true);
      await assertNoSidewaysScroll(x);

      await p.goto(`${server.url}/g/1:1/members`);
      const tag = p.locator(".members .row .tag", { hasText: "Manager" });
      const rowBox = await p.locator(".members .row", { hasText: "Manager" }).boundingBox();
      const tagBox = await tag.boundingBox();
      assert.ok(
        rowBox && tagBox && tagBox.width < 120 && tagBox.width < rowBox.width / 2,
        `tag ${tagBox?.width}px wide`,
      );
      await assertNoSidewaysScroll(x);
    });
  }

  it("asks before deleting a comment and deletes it without JavaScript too", async () => {
    const context = await browser.newContext({ locale: "en-US", javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, server.url, "alice@example.com", "alice-pass");
    await newTopic(page, server.url, "No script", "body");
    await page.getByLabel("Comment", { exact: true }).fill("to be deleted");
    await page.getByRole("button", { name: "Post comment" }).click();
    await page.waitForURL(/#comment-1$/);
    await page.locator("#comment-1 summary", { hasText: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL(/#comments$/);
    assert.equal(await page.locator("#comment-1").count(), 0);
  });
});
