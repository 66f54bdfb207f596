// The personal calendar's own events in Chromium, against one real `kairan serve` with the demo
// workspace: a weekly personal event written from "New event" on `/schedule`, one occurrence
// moved with "This occurrence only", seen marked "Personal" in the month view; axe checks the
// form, the event's page and the personal calendar with it.
// Run by `npm run build && node --import tsx --test test/browser/my-calendar.browser.ts`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import type { ServerProcess } from "../support/cli.js";
import { type DemoSession, assertAccessible, cellTitles, openDemoSession } from "./demo-calendar.js";

const TITLE = "Swimming lesson";

describe("personal events in Chromium: written from the personal calendar, one occurrence moved", () => {
  let session: DemoSession;
  let server: ServerProcess;
  let page: Page;

  before(async () => {
    session = await openDemoSession("kairan-my-calendar-");
    ({ server, page } = session);
  });
  after(() => session?.close());

  it("writes a weekly personal event, moves its second occurrence alone, and shows it marked in the month view", async () => {
    // 2030-05-07 is a Tuesday.
    await page.goto(`${server.url}/schedule?date=2030-05-07`);
    await page.getByRole("link", { name: "New event" }).click();
    await page.waitForURL(/\/schedule\/new\?date=2030-05-07/);
    await assertAccessible(page, "the new personal event form");
    assert.equal(await page.locator("#event-participants").count(), 0, "no participants for a personal event");
    await page.getByLabel("Title", { exact: true }).fill(TITLE);
    await page.locator("#event-start-time").fill("18:00");
    await page.locator("#event-end-time").fill("19:00");
    await page.getByLabel("Repeat", { exact: true }).selectOption("WEEKLY");
    await page.getByRole("group", { name: "On (weekly)" }).getByLabel("Tue").check();
    await page.locator('input[name="ends"][value="count"]').check();
    await page.locator("#event-count").fill("3");
    await page.getByRole("button", { name: "Add event" }).click();
    await page.waitForURL(/\/schedule\/1:\d+$/);
    assert.match((await page.locator("#event-repeat").textContent()) ?? "", /Every week on Tue, 3 times/);
    await assertAccessible(page, "the personal event page");

    await page.goto(`${server.url}/schedule?date=2030-05-01`);
    for (const day of ["2030-05-07", "2030-05-14", "2030-05-21"])
      assert.ok((await cellTitles(page, day)).includes(TITLE), day);
    await page.locator('td[data-date="2030-05-14"] a.cal-entry', { hasText: TITLE }).click();
    await page.waitForURL(/\/schedule\/1:\d+\?at=2030-05-14/);
    await page.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(/\/edit\?at=/);
    assert.equal(await page.getByLabel("This occurrence only").isChecked(), true);
    await assertAccessible(page, "the personal form at one occurrence");
    await page.locator("#event-start-date").fill("2030-05-16");
    await page.locator("#event-end-date").fill("2030-05-16");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/schedule\/1:\d+\?at=/);
    assert.match((await page.locator("#event-when").textContent()) ?? "", /Moved/);

    await page.goto(`${server.url}/schedule?date=2030-05-01`);
    assert.ok((await cellTitles(page, "2030-05-07")).includes(TITLE), "the first stays");
    assert.ok(!(await cellTitles(page, "2030-05-14")).includes(TITLE), "moved away from the 14th");
    assert.ok((await cellTitles(page, "2030-05-16")).includes(TITLE), "to the 16th");
    const entry = page.locator('td[data-date="2030-05-16"] a.cal-entry', { hasText: TITLE });
    assert.match((await entry.textContent()) ?? "", /Personal:/);
    await assertAccessible(page, "the personal calendar with a personal event");
    for (const view of ["week", "list"]) {
      await page.goto(`${server.url}/schedule?view=${view}&date=2030-05-14`);
      await assertAccessible(page, `the personal ${view} view`);
    }
  });
});
