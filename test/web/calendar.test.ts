import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { CalendarEvent } from "../../src/domain/event.js";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The titles a month grid shows in one day cell. */
function cellTitles(html: string, date: string): string[] {
  const cell = new RegExp(`<td class="cal-day[^"]*" data-date="${date}">([\\s\\S]*?)</td>`).exec(html);
  assert.ok(cell, `a cell for ${date}`);
  return [...(cell[1] ?? "").matchAll(/<span class="cal-title">([^<]*)<\/span>/g)].map((m) => m[1] ?? "");
}

describeEachBackend("web pages: calendars and events", (backend) => {
  let server: TestServer;
  let alice: TestUser; // manager
  let bob: TestUser; // member
  let carol: TestUser; // not in the group
  let group: Group;
  let g: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    group = await f.group([alice, bob], { managers: [alice] });
    await f.group([carol]);
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    carolWeb = new WebClient(server.url);
    await carolWeb.signIn(carol.email);
  });
  after(() => server.close());

  const events = async (): Promise<CalendarEvent[]> =>
    server.store.read(async (tx) => {
      const window = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2026, 11, 31) };
      const found = await tx.events.candidates(group.id, window, { kind: "all" });
      return tx.events.findByIds(found.map((c) => c.id));
    });
  const byTitle = async (title: string) => (await events()).find((e) => e.title === title);
  const fields = (values: Record<string, string> = {}): [string, string][] =>
    Object.entries({
      title: "Standup",
      memo: "Bring notes",
      startDate: "2026-04-08",
      startTime: "09:00",
      endDate: "2026-04-08",
      endTime: "10:00",
      zone: "UTC",
      repeat: "",
      interval: "1",
      ends: "never",
      until: "",
      count: "",
      menu: "",
      ...values,
    });
  const send = async (web: WebClient, path: string, pairs: [string, string][]) => {
    await web.get(`${g}/events/new`);
    return web.postPairs(path, [["_csrf", web.csrf()], ...pairs]);
  };

  it("adds a one-off event from the form and shows it in its day cell, on its page and in the week and list", async () => {
    const form = await aliceWeb.get(`${g}/events/new?date=2026-04-08`);
    assert.equal(form.status, 200);
    assert.match(form.html, /name="startDate" type="date" required value="2026-04-08"/);
    assert.match(form.html, new RegExp(`<option value="1:${bob.id}">Bob</option>`), "members can take part");
    await assertValidHtml(form.html, "new event form");
    const answer = await send(aliceWeb, `${g}/events/new`, fields());
    assert.equal(answer.status, 303);
    const event = (await byTitle("Standup"))!;
    assert.equal(answer.location, `${g}/events/1:${event.id}`);
    assert.deepEqual(
      [event.start, event.end, event.allDay, event.timeZone],
      [Date.UTC(2026, 3, 8, 9), Date.UTC(2026, 3, 8, 10), false, "UTC"],
    );
    const month = await aliceWeb.get(`${g}/events?date=2026-04-01`);
    assert.equal(month.status, 200);
    assert.deepEqual(cellTitles(month.html, "2026-04-08"), ["Standup"]);
    assert.deepEqual(cellTitles(month.html, "2026-04-07"), []);
    assert.match(month.html, /<h2 class="cal-heading">April 2026<\/h2>/);
    assert.match(month.html, /aria-current="page">Events</, "the group's Events tab");
    await assertValidHtml(month.html, "month view");
    const page = await aliceWeb.get(answer.location ?? "");
    assert.equal(page.status, 200);
    assert.match(page.html, /<h1>Standup<\/h1>/);
    assert.match(page.html, /Everyone in the group/);
    assert.match(page.html, /<div class="text body">Bring notes<\/div>/);
    await assertValidHtml(page.html, "event page");
    const week = await aliceWeb.get(`${g}/events?view=week&date=2026-04-08`);
    assert.match(week.html, /data-date="2026-04-08"[\s\S]*?09:00–10:00[\s\S]*?Standup/);
    await assertValidHtml(week.html, "week view");
    const list = await aliceWeb.get(`${g}/events?view=list&date=2026-04-01`);
    assert.match(list.html, /data-date="2026-04-08"[\s\S]*?Standup/);
    await assertValidHtml(list.html, "list view");
  });

  it("places an all-day event on its own date whatever the reader's zone, and a multi-day event on each day", async () => {
    await send(
      aliceWeb,
      `${g}/events/new`,
      fields({ title: "Holiday", allDay: "on", startDate: "2026-04-10", endDate: "2026-04-10", zone: "Asia/Tokyo" }),
    );
    await send(
      aliceWeb,
      `${g}/events/new`,
      fields({ title: "Trip", startDate: "2026-04-14", startTime: "22:00", endDate: "2026-04-16", endTime: "08:00" }),
    );
    const holiday = (await byTitle("Holiday"))!;
    assert.deepEqual(
      [holiday.start, holiday.end],
      [Date.UTC(2026, 3, 9, 15), Date.UTC(2026, 3, 10, 15)],
      "midnights in Tokyo",
    );
    await server.store.transaction((tx) => tx.users.update(alice.id, { timeZone: "America/Los_Angeles" }));
    const month = await aliceWeb.get(`${g}/events?date=2026-04-01`);
    assert.deepEqual(cellTitles(month.html, "2026-04-10"), ["Holiday"]);
    assert.deepEqual(cellTitles(month.html, "2026-04-09"), [], "not the day before in Los Angeles");
    // 22:00 UTC on the 14th is 15:00 in Los Angeles; 08:00 UTC on the 16th is 01:00 there.
    for (const day of ["2026-04-14", "2026-04-15", "2026-04-16"])
      assert.ok(cellTitles(month.html, day).includes("Trip"), day);
    assert.ok(!cellTitles(month.html, "2026-04-17").includes("Trip"));
    const page = await aliceWeb.get(`${g}/events/1:${(await byTitle("Standup"))!.id}`);
    assert.match(
      page.html,
      /In the event&#39;s time zone: Apr 8, 2026, 9:00 AM – Apr 8, 2026, 10:00 AM \(UTC\)|In the event's time zone/,
    );
    await server.store.transaction((tx) => tx.users.update(alice.id, { timeZone: null }));
  });

  it("repeats weekly, moves one occurrence and cancels another, and edits the whole series keeping both", async () => {
    const answer = await send(aliceWeb, `${g}/events/new`, [
      ...fields({
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
    const weekly = (await byTitle("Weekly"))!;
    assert.equal(weekly.rule, "FREQ=WEEKLY;BYDAY=MO;COUNT=4");
    const path = `${g}/events/1:${weekly.id}`;
    const at13 = "2026-04-13T09:00:00Z";
    const edit = await aliceWeb.get(`${path}/edit?at=${at13}`);
    assert.equal(edit.status, 200);
    assert.match(edit.html, /value="occurrence" checked/);
    await assertValidHtml(edit.html, "edit form at an occurrence");
    const moved = await aliceWeb.postPairs(`${path}/edit?at=${at13}`, [
      ["_csrf", aliceWeb.csrf()],
      ["scope", "occurrence"],
      ...fields({
        title: "Weekly",
        startDate: "2026-04-15",
        endDate: "2026-04-15",
        startTime: "11:00",
        endTime: "12:00",
      }),
    ]);
    assert.equal(moved.status, 303);
    const page = await aliceWeb.get(`${path}?at=2026-04-20T09:00:00Z`);
    assert.match(page.html, /Every week on Sun|Every week on Mon, 4 times/);
    const cancelled = await aliceWeb.post(`${path}/delete`, { at: "2026-04-20T09:00:00Z", scope: "occurrence" });
    assert.equal(cancelled.status, 303);
    const stored = (await byTitle("Weekly"))!;
    assert.deepEqual(stored.exceptions, [
      {
        originalStart: Date.UTC(2026, 3, 13, 9),
        cancelled: false,
        start: Date.UTC(2026, 3, 15, 11),
        end: Date.UTC(2026, 3, 15, 12),
      },
      { originalStart: Date.UTC(2026, 3, 20, 9), cancelled: true },
    ]);
    const month = await aliceWeb.get(`${g}/events?date=2026-04-01`);
    assert.ok(cellTitles(month.html, "2026-04-06").includes("Weekly"));
    assert.ok(!cellTitles(month.html, "2026-04-13").includes("Weekly"), "moved away");
    assert.ok(cellTitles(month.html, "2026-04-15").includes("Weekly"), "moved here");
    assert.ok(!cellTitles(month.html, "2026-04-20").includes("Weekly"), "cancelled");
    assert.ok(cellTitles(month.html, "2026-04-27").includes("Weekly"));
    const movedPage = await aliceWeb.get(`${path}?at=${at13}`);
    assert.match(movedPage.html, /Moved/);
    await assertValidHtml(movedPage.html, "moved occurrence page");
    const series = await aliceWeb.postPairs(`${path}/edit`, [
      ["_csrf", aliceWeb.csrf()],
      ...fields({
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
    const renamed = (await byTitle("Weekly sync"))!;
    assert.equal(renamed.exceptions.length, 2, "the whole series keeps its moved and cancelled occurrences");
  });

  it("refuses bad input in the form, says why, keeps what was typed and stores nothing", async () => {
    const before = (await events()).length;
    for (const [values, message] of [
      [{ title: "" }, "The event title is missing or empty."],
      [{ startDate: "2026-02-30" }, "The start must be a date such as 2026-12-08."],
      [{ startTime: "25:00" }, "The start must be a time such as 09:30."],
      [{ endTime: "08:00" }, "endTime must be later than startTime."],
      [{ zone: "Mars/Base" }, "IANA time zone"],
      [{ repeat: "WEEKLY", interval: "0" }, "The interval must be a whole number from 1 to 9999."],
      [{ repeat: "DAILY", ends: "count", count: "x" }, "The number of times must be a whole number"],
      [{ menu: "nonsense" }, "The menu must be chosen from the list"],
    ] as const) {
      const answer = await send(aliceWeb, `${g}/events/new`, fields({ title: "Kept title", ...values }));
      assert.equal(answer.status, 400, JSON.stringify(values));
      assert.ok(answer.html.includes(message), `${JSON.stringify(values)}: ${message}`);
      if (!("title" in values)) assert.match(answer.html, /value="Kept title"/);
    }
    assert.equal((await events()).length, before);
  });

  it("lets only the creator, participants and managers edit; a member who may not edit gets 403 and changes nothing", async () => {
    await send(aliceWeb, `${g}/events/new`, [...fields({ title: "Private" }), ["participants", `1:${alice.id}`]]);
    const event = (await byTitle("Private"))!;
    const path = `${g}/events/1:${event.id}`;
    const page = await bobWeb.get(path);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.html, /\/edit"/, "no edit link");
    assert.equal((await bobWeb.get(`${path}/edit`)).status, 403);
    await bobWeb.get(path);
    assert.equal(
      (await bobWeb.postPairs(`${path}/edit`, [["_csrf", bobWeb.csrf()], ...fields({ title: "Hijacked" })])).status,
      403,
    );
    assert.equal((await bobWeb.post(`${path}/delete`, {})).status, 403);
    assert.equal((await byTitle("Private"))?.id, event.id);
    assert.equal((await bobWeb.get(`${g}/events/lists`)).status, 403, "menus are the managers'");
  });

  it("refuses a non-member every calendar page and form, naming nothing of the group", async () => {
    const event = (await byTitle("Standup"))!;
    const path = `${g}/events/1:${event.id}`;
    for (const url of [
      `${g}/events`,
      `${g}/events?view=week`,
      `${g}/events/new`,
      path,
      `${path}/edit`,
      `${g}/events/lists`,
    ]) {
      const answer = await carolWeb.get(url);
      assert.equal(answer.status, 403, url);
      assert.match(answer.html, /You are not a member of this group, or it does not exist\./);
      assert.doesNotMatch(answer.html, /Standup/);
    }
    await carolWeb.get("/schedule");
    for (const url of [
      `${g}/events/new`,
      `${path}/edit`,
      `${path}/delete`,
      `${g}/events/lists`,
      `${path}/like`,
      `${path}/comments`,
    ])
      assert.equal(
        (await carolWeb.post(url, { title: "x", text: "hi", list: "menus", change: "add", name: "x" })).status,
        403,
        url,
      );
    assert.equal((await byTitle("Standup"))?.title, "Standup");
    assert.equal((await carolWeb.get(`/g/1:999999/events`)).status, 404, "a group that does not exist");
  });

  it("shows the person's own calendar over their groups: events naming them or nobody", async () => {
    const mine = await bobWeb.get("/schedule?date=2026-04-01");
    assert.equal(mine.status, 200);
    assert.ok(cellTitles(mine.html, "2026-04-08").includes("Standup"));
    assert.ok(!cellTitles(mine.html, "2026-04-08").includes("Private"), "Alice's own event is not Bob's");
    assert.match(mine.html, new RegExp(`<span class="cal-group">${group.name}:</span>`));
    await assertValidHtml(mine.html, "personal calendar");
    const aliceMine = await aliceWeb.get("/schedule?date=2026-04-01");
    assert.ok(cellTitles(aliceMine.html, "2026-04-08").includes("Private"));
    assert.equal((await carolWeb.get("/schedule?date=2026-04-01")).html.includes("Standup"), false);
  });

  it("shows +N more when a day is full, and refuses a bad view or date", async () => {
    for (const n of [1, 2, 3, 4])
      await send(
        aliceWeb,
        `${g}/events/new`,
        fields({ title: `Busy ${n}`, startDate: "2026-04-22", endDate: "2026-04-22" }),
      );
    const month = await aliceWeb.get(`${g}/events?date=2026-04-01`);
    assert.equal(cellTitles(month.html, "2026-04-22").length, 3);
    assert.match(month.html, /\+1 more/);
    assert.equal((await aliceWeb.get(`${g}/events?view=year`)).status, 400);
    assert.equal((await aliceWeb.get(`${g}/events?date=2026-13-01`)).status, 400);
    assert.equal((await aliceWeb.get(`${g}/events?menu=zzz`)).status, 400);
  });

  it("lets managers add, rename and remove menus and facilities, and filters the calendar by menu", async () => {
    const page = await aliceWeb.get(`${g}/events/lists`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "menus page");
    assert.equal(
      (await aliceWeb.post(`${g}/events/lists`, { list: "menus", change: "add", name: "Meeting" })).status,
      303,
    );
    assert.equal(
      (await aliceWeb.post(`${g}/events/lists`, { list: "facilities", change: "add", name: "Room A" })).status,
      303,
    );
    const empty = await aliceWeb.post(`${g}/events/lists`, { list: "menus", change: "add", name: "  " });
    assert.equal(empty.status, 400);
    const [menu] = await server.store.read((tx) => tx.events.listNamed("event_menus", group.id));
    assert.equal(menu?.name, "Meeting");
    await aliceWeb.get(`${g}/events/lists`);
    assert.equal(
      (
        await aliceWeb.post(`${g}/events/lists`, {
          list: "menus",
          change: "rename",
          id: `1:${menu!.id}`,
          name: "Meetings",
        })
      ).status,
      303,
    );
    await send(
      aliceWeb,
      `${g}/events/new`,
      fields({ title: "Board meeting", menu: `1:${menu!.id}`, startDate: "2026-04-23", endDate: "2026-04-23" }),
    );
    const filtered = await aliceWeb.get(`${g}/events?date=2026-04-01&menu=1:${menu!.id}`);
    assert.deepEqual(cellTitles(filtered.html, "2026-04-23"), ["Board meeting"]);
    assert.deepEqual(cellTitles(filtered.html, "2026-04-08"), []);
    await aliceWeb.get(`${g}/events/lists`);
    assert.equal(
      (await aliceWeb.post(`${g}/events/lists`, { list: "menus", change: "remove", id: `1:${menu!.id}` })).status,
      303,
    );
    assert.equal((await byTitle("Board meeting"))?.menuId, null);
  });

  it("speaks Japanese to a Japanese reader and links the menus page from the group's edit page", async () => {
    await server.store.transaction((tx) => tx.users.update(alice.id, { lang: "ja" }));
    const month = await aliceWeb.get(`${g}/events?date=2026-04-01`);
    assert.match(month.html, /<h2 class="cal-heading">2026年4月<\/h2>/);
    assert.match(month.html, /予定を追加/);
    await assertValidHtml(month.html, "Japanese month view");
    const form = await aliceWeb.get(`${g}/events/new`);
    assert.match(form.html, /繰り返さない/);
    const weekly = await aliceWeb.get(`${g}/events/1:${(await byTitle("Weekly sync"))!.id}`);
    assert.match(weekly.html, /毎週（月）、4 回/);
    await server.store.transaction((tx) => tx.users.update(alice.id, { lang: null }));
    const edit = await aliceWeb.get(`${g}/edit`);
    assert.match(edit.html, new RegExp(`href="${g}/events/lists">Menus and facilities<`));
  });

  it("deletes a whole event from its page", async () => {
    const event = (await byTitle("Busy 4"))!;
    const path = `${g}/events/1:${event.id}`;
    await aliceWeb.get(path);
    const answer = await aliceWeb.post(`${path}/delete`, {});
    assert.equal(answer.status, 303);
    assert.equal(await byTitle("Busy 4"), undefined);
    assert.equal((await aliceWeb.get(path)).status, 404);
  });
});
