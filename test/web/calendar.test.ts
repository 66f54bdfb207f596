import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { assertValidHtml } from "../support/web.js";
import { type CalendarWorld, cellBars, cellTitles, startCalendarWorld } from "./calendar-world.js";

describeEachBackend("web pages: calendars", (backend) => {
  let w: CalendarWorld;
  before(async () => {
    w = await startCalendarWorld(backend);
  });
  after(() => w.server.close());

  it("adds a one-off event from the form and shows it in its day cell, on its page and in the week and list", async () => {
    const form = await w.aliceWeb.get(`${w.g}/events/new?date=2026-04-08`);
    assert.equal(form.status, 200);
    assert.match(form.html, /name="startDate" type="date" required value="2026-04-08"/);
    assert.match(
      form.html,
      new RegExp(`<label><input type="checkbox" name="participants" value="1:${w.bob.id}"> Bob</label>`),
      "members can take part",
    );
    assert.match(form.html, /<label><input type="checkbox" name="byDay" value="MO"> Mon<\/label>/, "weekdays too");
    await assertValidHtml(form.html, "new event form");
    const answer = await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields());
    assert.equal(answer.status, 303);
    const event = (await w.byTitle("Standup"))!;
    assert.equal(answer.location, `${w.g}/events/1:${event.id}`);
    assert.deepEqual(
      [event.start, event.end, event.allDay, event.timeZone],
      [Date.UTC(2026, 3, 8, 9), Date.UTC(2026, 3, 8, 10), false, "UTC"],
    );
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.equal(month.status, 200);
    assert.deepEqual(cellTitles(month.html, "2026-04-08"), ["Standup"]);
    assert.deepEqual(cellTitles(month.html, "2026-04-07"), []);
    assert.match(month.html, /<h2 class="cal-heading">April 2026<\/h2>/);
    assert.match(month.html, /aria-current="page">Events</, "the group's Events tab");
    await assertValidHtml(month.html, "month view");
    const page = await w.aliceWeb.get(answer.location ?? "");
    assert.equal(page.status, 200);
    assert.match(page.html, /<h1>Standup<\/h1>/);
    assert.match(page.html, /Everyone in the group/);
    assert.match(page.html, /<div class="markdown body"><p>Bring notes<\/p>\n<\/div>/);
    await assertValidHtml(page.html, "event page");
    const week = await w.aliceWeb.get(`${w.g}/events?view=week&date=2026-04-08`);
    assert.match(week.html, /data-date="2026-04-08"[\s\S]*?09:00–10:00[\s\S]*?Standup/);
    await assertValidHtml(week.html, "week view");
    const list = await w.aliceWeb.get(`${w.g}/events?view=list&date=2026-04-01`);
    assert.match(list.html, /data-date="2026-04-08"[\s\S]*?Standup/);
    await assertValidHtml(list.html, "list view");
  });

  it("places an all-day event on its own date whatever the reader's zone, and a multi-day event as one bar", async () => {
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Holiday", allDay: "on", startDate: "2026-04-10", endDate: "2026-04-10", zone: "Asia/Tokyo" }),
    );
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Trip", startDate: "2026-04-14", startTime: "22:00", endDate: "2026-04-16", endTime: "08:00" }),
    );
    const holiday = (await w.byTitle("Holiday"))!;
    assert.deepEqual(
      [holiday.start, holiday.end],
      [Date.UTC(2026, 3, 9, 15), Date.UTC(2026, 3, 10, 15)],
      "midnights in Tokyo",
    );
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: "America/Los_Angeles" }));
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.deepEqual(cellTitles(month.html, "2026-04-10"), ["Holiday"]);
    assert.deepEqual(cellTitles(month.html, "2026-04-09"), [], "not the day before in Los Angeles");
    // 22:00 UTC on the 14th is 15:00 in Los Angeles; 08:00 UTC on the 16th is 01:00 there.
    // One bar from the 14th across the 15th and 16th (not repeated in each cell), none on the 17th.
    assert.deepEqual(cellBars(month.html, "2026-04-14"), [{ title: "Trip", span: 3 }]);
    for (const day of ["2026-04-15", "2026-04-16", "2026-04-17"]) {
      assert.deepEqual(cellBars(month.html, day), [], day);
      assert.ok(!cellTitles(month.html, day).includes("Trip"), day);
    }
    assert.match(month.html, /data-date="2026-04-15">[\s\S]*?<li class="cal-bar-gap" aria-hidden="true"><\/li>/);
    const page = await w.aliceWeb.get(`${w.g}/events/1:${(await w.byTitle("Standup"))!.id}`);
    assert.match(
      page.html,
      /In the event&#39;s time zone: Apr 8, 2026, 9:00 AM – Apr 8, 2026, 10:00 AM \(UTC\)|In the event's time zone/,
    );
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { timeZone: null }));
  });

  it("repeats weekly, moves one occurrence and cancels another, and edits the whole series keeping both", async () => {
    const answer = await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({
        title: "Weekly",
        startDate: "2026-04-06",
        endDate: "2026-04-06",
        repeat: "WEEKLY",
        ends: "count",
        count: "4",
      }),
      ["byDay", "MO"],
    ]);
    assert.equal(answer.status, 303);
    const weekly = (await w.byTitle("Weekly"))!;
    assert.equal(weekly.rule, "FREQ=WEEKLY;BYDAY=MO;COUNT=4");
    const path = `${w.g}/events/1:${weekly.id}`;
    const at13 = "2026-04-13T09:00:00Z";
    const edit = await w.aliceWeb.get(`${path}/edit?at=${at13}`);
    assert.equal(edit.status, 200);
    assert.match(edit.html, /value="occurrence" checked/);
    await assertValidHtml(edit.html, "edit form at an occurrence");
    const moved = await w.aliceWeb.postPairs(`${path}/edit?at=${at13}`, [
      ["_csrf", w.aliceWeb.csrf()],
      ["scope", "occurrence"],
      ...w.fields({
        title: "Weekly",
        startDate: "2026-04-15",
        endDate: "2026-04-15",
        startTime: "11:00",
        endTime: "12:00",
      }),
    ]);
    assert.equal(moved.status, 303);
    const page = await w.aliceWeb.get(`${path}?at=2026-04-20T09:00:00Z`);
    assert.match(page.html, /Every week on Sun|Every week on Mon, 4 times/);
    const cancelled = await w.aliceWeb.post(`${path}/delete`, { at: "2026-04-20T09:00:00Z", scope: "occurrence" });
    assert.equal(cancelled.status, 303);
    const stored = (await w.byTitle("Weekly"))!;
    assert.deepEqual(stored.exceptions, [
      {
        originalStart: Date.UTC(2026, 3, 13, 9),
        cancelled: false,
        start: Date.UTC(2026, 3, 15, 11),
        end: Date.UTC(2026, 3, 15, 12),
      },
      { originalStart: Date.UTC(2026, 3, 20, 9), cancelled: true },
    ]);
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.ok(cellTitles(month.html, "2026-04-06").includes("Weekly"));
    assert.ok(!cellTitles(month.html, "2026-04-13").includes("Weekly"), "moved away");
    assert.ok(cellTitles(month.html, "2026-04-15").includes("Weekly"), "moved here");
    assert.ok(!cellTitles(month.html, "2026-04-20").includes("Weekly"), "cancelled");
    assert.ok(cellTitles(month.html, "2026-04-27").includes("Weekly"));
    const movedPage = await w.aliceWeb.get(`${path}?at=${at13}`);
    assert.match(movedPage.html, /Moved/);
    await assertValidHtml(movedPage.html, "moved occurrence page");
    const series = await w.aliceWeb.postPairs(`${path}/edit`, [
      ["_csrf", w.aliceWeb.csrf()],
      ...w.fields({
        title: "Weekly sync",
        startDate: "2026-04-06",
        endDate: "2026-04-06",
        repeat: "WEEKLY",
        ends: "count",
        count: "4",
      }),
      ["byDay", "MO"],
    ]);
    assert.equal(series.status, 303);
    const renamed = (await w.byTitle("Weekly sync"))!;
    assert.equal(renamed.exceptions.length, 2, "the whole series keeps its moved and cancelled occurrences");
  });

  it("shows the person's own calendar over their groups: events naming them or nobody", async () => {
    await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({ title: "Mine only" }),
      ["participants", `1:${w.alice.id}`],
    ]);
    const mine = await w.bobWeb.get("/schedule?date=2026-04-01");
    assert.equal(mine.status, 200);
    assert.ok(cellTitles(mine.html, "2026-04-08").includes("Standup"));
    assert.ok(!cellTitles(mine.html, "2026-04-08").includes("Mine only"), "Alice's own event is not Bob's");
    assert.match(mine.html, new RegExp(`<span class="cal-group">${w.group.name}:</span>`));
    await assertValidHtml(mine.html, "personal calendar");
    const aliceMine = await w.aliceWeb.get("/schedule?date=2026-04-01");
    assert.ok(cellTitles(aliceMine.html, "2026-04-08").includes("Mine only"));
    assert.equal((await w.carolWeb.get("/schedule?date=2026-04-01")).html.includes("Standup"), false);
  });

  it("shows +N more when a day is full, and refuses a bad view or date", async () => {
    for (const n of [1, 2, 3, 4])
      await w.send(
        w.aliceWeb,
        `${w.g}/events/new`,
        w.fields({ title: `Busy ${n}`, startDate: "2026-04-22", endDate: "2026-04-22" }),
      );
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.equal(cellTitles(month.html, "2026-04-22").length, 3);
    assert.match(month.html, /\+1 more/);
    assert.equal((await w.aliceWeb.get(`${w.g}/events?view=year`)).status, 400);
    assert.equal((await w.aliceWeb.get(`${w.g}/events?date=2026-13-01`)).status, 400);
    assert.equal((await w.aliceWeb.get(`${w.g}/events?menu=zzz`)).status, 400);
  });

  it("speaks Japanese to a Japanese reader and links the menus page from the group's edit page", async () => {
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { lang: "ja" }));
    const month = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01`);
    assert.match(month.html, /<h2 class="cal-heading">2026年4月<\/h2>/);
    assert.match(month.html, /予定を追加/);
    await assertValidHtml(month.html, "Japanese month view");
    const form = await w.aliceWeb.get(`${w.g}/events/new`);
    assert.match(form.html, /繰り返さない/);
    const weekly = await w.aliceWeb.get(`${w.g}/events/1:${(await w.byTitle("Weekly sync"))!.id}`);
    assert.match(weekly.html, /毎週（月）、4 回/);
    await w.server.store.transaction((tx) => tx.users.update(w.alice.id, { lang: null }));
    const edit = await w.aliceWeb.get(`${w.g}/edit`);
    assert.match(edit.html, new RegExp(`href="${w.g}/events/lists">Menus and facilities<`));
  });
});
