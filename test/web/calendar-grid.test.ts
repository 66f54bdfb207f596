// The week and day views as a time grid: hours down the side, each timed event in the row of the
// hour it starts in the reader's zone, all-day events (and days an event goes on from an earlier
// day) in the top row.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { assertValidHtml } from "../support/web.js";
import { type CalendarWorld, cellBars, cellTitles, startCalendarWorld } from "./calendar-world.js";

/** The titles in the grid's cell of `date` at `hour` (undefined: the all-day row). */
function gridTitles(html: string, date: string, hour?: number): string[] {
  const at = hour === undefined ? "" : ` data-hour="${hour}"`;
  const cell = new RegExp(`<td class="cal-day[^"]*" data-date="${date}"${at}>([\\s\\S]*?)</td>`).exec(html);
  assert.ok(cell, `a cell for ${date} ${hour ?? "all day"}`);
  return [...(cell[1] ?? "").matchAll(/<span class="cal-title">([^<]*)<\/span>/g)].map((m) => m[1] ?? "");
}

const hoursOf = (html: string) => [...html.matchAll(/data-hour="(\d+)"/g)].map((m) => Number(m[1]));

describeEachBackend("web pages: the calendar's time grid", (backend) => {
  let w: CalendarWorld;
  before(async () => {
    w = await startCalendarWorld(backend);
    await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Standup" }));
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Holiday", allDay: "on", startDate: "2026-04-09", endDate: "2026-04-09" }),
    );
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({
        title: "Night trip",
        startDate: "2026-04-09",
        startTime: "22:00",
        endDate: "2026-04-10",
        endTime: "02:00",
      }),
    );
  });
  after(() => w.server.close());

  it("places timed events in their hour's row, all-day ones and continuations in the top row", async () => {
    const week = await w.aliceWeb.get(`${w.g}/events?view=week&date=2026-04-08`);
    assert.equal(week.status, 200);
    await assertValidHtml(week.html, "week grid");
    assert.match(week.html, /<table class="cal-grid">/);
    assert.deepEqual(gridTitles(week.html, "2026-04-08", 9), ["Standup"]);
    assert.deepEqual(gridTitles(week.html, "2026-04-08", 10), []);
    assert.deepEqual(gridTitles(week.html, "2026-04-09"), ["Holiday"]);
    assert.deepEqual(gridTitles(week.html, "2026-04-09", 22), ["Night trip"]);
    assert.deepEqual(gridTitles(week.html, "2026-04-10"), ["Night trip"], "its second day, on top");
    const hours = [...new Set(hoursOf(week.html))];
    assert.equal(hours[0], 8, "the working day from 08:00");
    assert.equal(hours.at(-1), 22, "widened to the latest start");
    assert.match(week.html, /<th scope="row" class="cal-hour"><time>09:00<\/time><\/th>/);
  });

  it("shows a day view with one column, moving a day at a time", async () => {
    const day = await w.aliceWeb.get(`${w.g}/events?view=day&date=2026-04-08`);
    assert.equal(day.status, 200);
    await assertValidHtml(day.html, "day grid");
    assert.match(day.html, /<h2 class="cal-heading">Wednesday, April 8, 2026<\/h2>/);
    assert.deepEqual(gridTitles(day.html, "2026-04-08", 9), ["Standup"]);
    assert.equal([...new Set(day.html.match(/data-date="[^"]+" data-hour/g))].length, 1, "one day");
    assert.match(day.html, /rel="prev" href="[^"]*view=day&amp;date=2026-04-07"/);
    assert.match(day.html, /rel="next" href="[^"]*view=day&amp;date=2026-04-09"/);
    assert.match(day.html, /view=day&amp;date=2026-04-08" aria-current="page">Day</);
    const mine = await w.aliceWeb.get("/schedule?view=day&date=2026-04-08");
    assert.deepEqual(gridTitles(mine.html, "2026-04-08", 9), ["Standup"]);
  });

  it("follows the reader's zone and language", async () => {
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: "Asia/Tokyo", lang: "ja" }));
    const week = await w.aliceWeb.get(`${w.g}/events?view=week&date=2026-04-08`);
    assert.deepEqual(gridTitles(week.html, "2026-04-08", 18), ["Standup"], "09:00 UTC is 18:00 in Tokyo");
    assert.match(week.html, />終日</);
    assert.match(week.html, />日</);
    await assertValidHtml(week.html, "Japanese week grid");
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: null, lang: null }));
  });

  it("draws an event of several days in the month as one bar per week it crosses", async () => {
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Offsite", allDay: "on", startDate: "2026-04-17", endDate: "2026-04-20" }),
    );
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    await assertValidHtml(month.html, "month with bars");
    assert.deepEqual(cellBars(month.html, "2026-04-17"), [{ title: "Offsite", span: 2 }], "Friday and Saturday");
    assert.deepEqual(cellBars(month.html, "2026-04-18"), []);
    assert.deepEqual(cellBars(month.html, "2026-04-19"), [{ title: "Offsite", span: 2 }], "Sunday and Monday");
    assert.match(month.html, /data-date="2026-04-19">[\s\S]*?cal-continued[\s\S]*?Offsite/);
    assert.deepEqual(cellTitles(month.html, "2026-04-21"), []);
    // The night trip (22:00 on the 9th to 02:00 on the 10th) is a bar of two days too.
    assert.deepEqual(cellBars(month.html, "2026-04-09"), [{ title: "Night trip", span: 2 }]);
    assert.deepEqual(cellTitles(month.html, "2026-04-09"), ["Night trip", "Holiday"]);
  });
});
