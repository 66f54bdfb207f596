// The calendar in Chromium, against one real `kairan serve` with the demo workspace: a weekly
// event written in the form, one occurrence moved with "This occurrence only", both seen in the
// group's month view, on the personal calendar and in the group's iCalendar address (read with
// ical.js, as a calendar application reads it); axe checks each calendar view and the form.
// Run by `npm run build && node --import tsx --test test/browser/calendar.browser.ts`.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import ICAL from "ical.js";
import type { Page } from "playwright-core";
import type { ServerProcess } from "../support/cli.js";
import { type DemoSession, assertAccessible, cellTitles, openDemoSession } from "./demo-calendar.js";

const TITLE = "Browser weekly";

describe("the calendar in Chromium: a weekly event, one occurrence moved, in the month view and on the personal calendar", () => {
  let session: DemoSession;
  let server: ServerProcess;
  let page: Page;

  before(async () => {
    session = await openDemoSession("kairan-calendar-");
    ({ server, page } = session);
  });
  after(() => session?.close());

  it("writes a weekly event, moves its second occurrence alone, and shows both where they are", async () => {
    // 2030-05-06 is a Monday.
    await page.goto(`${server.url}/g/1:1/events/new?date=2030-05-06`);
    await assertAccessible(page, "the new event form");
    await page.getByLabel("Title", { exact: true }).fill(TITLE);
    await page.locator("#event-start-time").fill("09:00");
    await page.locator("#event-end-time").fill("10:00");
    await page.getByLabel("Repeat", { exact: true }).selectOption("WEEKLY");
    await page.getByRole("group", { name: "On (weekly)" }).getByLabel("Mon").check();
    await page.locator('input[name="ends"][value="count"]').check();
    await page.locator("#event-count").fill("3");
    await page.getByRole("button", { name: "Add event" }).click();
    await page.waitForURL(/\/g\/1:1\/events\/1:\d+$/);
    assert.match((await page.locator("#event-repeat").textContent()) ?? "", /Every week on Mon, 3 times/);
    await assertAccessible(page, "the event page");

    await page.goto(`${server.url}/g/1:1/events?date=2030-05-01`);
    for (const day of ["2030-05-06", "2030-05-13", "2030-05-20"])
      assert.ok((await cellTitles(page, day)).includes(TITLE), day);
    await page.locator('td[data-date="2030-05-13"] a.cal-entry', { hasText: TITLE }).click();
    await page.waitForURL(/\?at=2030-05-13/);
    await page.getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(/\/edit\?at=/);
    assert.equal(await page.getByLabel("This occurrence only").isChecked(), true);
    await assertAccessible(page, "the form at one occurrence");
    await page.locator("#event-start-date").fill("2030-05-15");
    await page.locator("#event-end-date").fill("2030-05-15");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/events\/1:\d+\?at=/);
    assert.match((await page.locator("#event-when").textContent()) ?? "", /Moved/);

    await page.goto(`${server.url}/g/1:1/events?date=2030-05-01`);
    assert.ok((await cellTitles(page, "2030-05-06")).includes(TITLE), "the first stays");
    assert.ok(!(await cellTitles(page, "2030-05-13")).includes(TITLE), "moved away from the 13th");
    assert.ok((await cellTitles(page, "2030-05-15")).includes(TITLE), "to the 15th");
    assert.ok((await cellTitles(page, "2030-05-20")).includes(TITLE), "the third stays");
    await assertAccessible(page, "the month view");

    await page.goto(`${server.url}/schedule?date=2030-05-01`);
    assert.ok(!(await cellTitles(page, "2030-05-13")).includes(TITLE));
    assert.ok((await cellTitles(page, "2030-05-15")).includes(TITLE), "on the personal calendar too");
    await assertAccessible(page, "the personal calendar");

    // The group's calendar address, made in the settings page as a person would, read the way a
    // calendar application reads it: the series, and its 13 May occurrence moved to the 15th.
    await page.goto(`${server.url}/settings`);
    await page.locator("#calendar").getByRole("button", { name: "Make calendar addresses" }).click();
    const groupAddress = (await page.locator(".calendar-group").first().textContent()) ?? "";
    assert.match(groupAddress, /\/ical\/[A-Za-z0-9_-]+\/group\/1:1\.ics$/);
    const answer = await fetch(groupAddress.trim());
    assert.equal(answer.status, 200);
    const calendar = new ICAL.Component(ICAL.parse(await answer.text()));
    const mine = calendar.getAllSubcomponents("vevent").filter((v) => v.getFirstPropertyValue("summary") === TITLE);
    const series = mine.find((v) => !v.hasProperty("recurrence-id"));
    const moved = mine.find((v) => v.hasProperty("recurrence-id"));
    assert.ok(series && moved, "the series and its moved occurrence");
    assert.match(String(series.getFirstPropertyValue("rrule")), /FREQ=WEEKLY;.*COUNT=3/);
    assert.match(String(moved.getFirstPropertyValue("recurrence-id")), /^2030-05-13T09:00:00/);
    assert.match(String(moved.getFirstPropertyValue("dtstart")), /^2030-05-15T09:00:00/);

    for (const view of ["week", "day", "list"]) {
      await page.goto(`${server.url}/g/1:1/events?view=${view}&date=2030-05-13`);
      await assertAccessible(page, `the ${view} view`);
    }
    await page.goto(`${server.url}/g/1:1/events/lists`);
    await assertAccessible(page, "the menus and facilities page");
  });

  it("shows the group week view: every member's row holds the group event, and Next moves a week", async () => {
    await page.goto(`${server.url}/g/1:1/events?date=2030-05-01`);
    await page.locator(".cal-views").getByRole("link", { name: "Members" }).click();
    await page.waitForURL(/view=members/);
    const rows = page.locator("table.cal-members tbody tr");
    assert.ok((await rows.count()) >= 2, "two members or more");
    await page.goto(`${server.url}/g/1:1/events?view=members&date=2030-05-06`);
    const first = rows.nth(0);
    assert.equal((await first.locator("th").textContent())?.trim(), "Alice Aoki", "the reader first");
    for (const row of [first, rows.nth(1)])
      assert.deepEqual(await row.locator('td[data-date="2030-05-06"] .cal-title').allTextContents(), [TITLE]);
    await assertAccessible(page, "the group week view");
    await page.locator(".cal-moves").getByRole("link", { name: /Next/ }).click();
    await page.waitForURL(/date=2030-05-12/);
    assert.equal(
      await page.locator('table.cal-members td[data-date="2030-05-13"] .cal-title').count(),
      0,
      "moved to the 15th",
    );
    assert.ok((await page.locator('table.cal-members td[data-date="2030-05-15"] .cal-title').count()) >= 2);
  });

  it("lets a participant answer an event on its page, and shows the answer by the name", async () => {
    await page.goto(`${server.url}/g/1:1/events/new?date=2030-06-03`);
    await page.getByLabel("Title", { exact: true }).fill("Browser review");
    await page.locator("#event-start-time").fill("13:00");
    await page.locator("#event-end-time").fill("14:00");
    await page.getByRole("group", { name: "Participants" }).getByLabel("Alice Aoki").check();
    await page.getByRole("button", { name: "Add event" }).click();
    await page.waitForURL(/\/g\/1:1\/events\/1:\d+$/);
    const form = page.getByRole("group", { name: "Your answer" });
    await form.getByLabel("Maybe").check();
    await form.getByRole("button", { name: "Answer" }).click();
    await page.waitForURL(/\/g\/1:1\/events\/1:\d+$/);
    assert.match((await page.locator("#event-participants").textContent()) ?? "", /Alice Aoki \(maybe\)/);
    assert.equal(await page.getByRole("group", { name: "Your answer" }).getByLabel("Maybe").isChecked(), true);
    await assertAccessible(page, "the event page with the answer form");
  });
});
