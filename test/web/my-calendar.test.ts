// The personal calendar's own events in the browser: `/schedule` shows them with the group events
// the user takes part in; `/schedule/1:n` is their page; the event form writes them (through the
// same service functions as `POST /api/schedule/V2`); nobody but the owner reaches any of it.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { PersonalEvent } from "../../src/domain/event.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { WebClient, assertValidHtml } from "../support/web.js";
import { type CalendarWorld, cellTitles, startCalendarWorld } from "./calendar-world.js";

describeEachBackend("web pages: personal events in the personal calendar", (backend) => {
  let w: CalendarWorld;
  const mine = async (ownerId: number): Promise<PersonalEvent[]> =>
    w.server.store.read(async (tx) => {
      const window = { start: Date.UTC(2026, 0, 1), end: Date.UTC(2027, 11, 31) };
      const found = await tx.personalEvents.candidates(ownerId, window);
      return tx.personalEvents.findByIds(found.map((c) => c.id));
    });
  const aliceEvent = async (title: string) => (await mine(w.alice.id)).find((e) => e.title === title);
  const create = async (values: Record<string, string>, extra: [string, string][] = []) => {
    await w.aliceWeb.get("/schedule/new");
    return w.aliceWeb.postPairs("/schedule/new", [["_csrf", w.aliceWeb.csrf()], ...w.fields(values), ...extra]);
  };

  before(async () => {
    w = await startCalendarWorld(backend);
  });
  after(() => w.server.close());

  it("offers a new-event form without a group's fields, and creates a personal event shown on its page", async () => {
    const calendar = await w.aliceWeb.get("/schedule?date=2026-04-01");
    assert.match(calendar.html, /href="\/schedule\/new\?date=2026-04-01"/);
    const form = await w.aliceWeb.get("/schedule/new?date=2026-04-08");
    assert.equal(form.status, 200);
    assert.match(form.html, /New personal event/);
    assert.doesNotMatch(form.html, /name="participants"|name="menu"|name="facilities"/);
    await assertValidHtml(form.html, "personal event form");
    const answer = await create({ title: "Dentist", memo: "Bring the card", zone: "Asia/Tokyo" });
    assert.equal(answer.status, 303);
    const event = (await aliceEvent("Dentist"))!;
    assert.equal(answer.location, `/schedule/1:${event.id}`);
    assert.equal(event.timeZone, "Asia/Tokyo");
    const page = await w.aliceWeb.get(`/schedule/1:${event.id}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /<h1>Dentist<\/h1>/);
    assert.match(page.html, /Bring the card/);
    assert.match(page.html, /Personal/);
    assert.match(page.html, /\(Asia\/Tokyo\)/, "the event's own zone, as it differs from the reader's");
    assert.match(page.html, new RegExp(`href="/schedule/1:${event.id}/edit"`));
    await assertValidHtml(page.html, "personal event page");
    const mobile = await w.aliceWeb.get(`/m/schedule/1:${event.id}`);
    assert.equal(mobile.status, 200);
    assert.match(mobile.html, /<h1>Dentist<\/h1>/);
  });

  it("shows personal events, marked, with the group events in the month, week and list views", async () => {
    await create({ title: "Gym", startDate: "2026-05-12", endDate: "2026-05-12" });
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({
        title: "Team sync",
        startDate: "2026-05-12",
        endDate: "2026-05-12",
        startTime: "11:00",
        endTime: "12:00",
      }),
    );
    const gym = (await aliceEvent("Gym"))!;
    for (const view of ["", "&view=week", "&view=list"]) {
      const page = await w.aliceWeb.get(`/schedule?date=2026-05-12${view}`);
      assert.equal(page.status, 200, view);
      assert.match(
        page.html,
        new RegExp(
          `href="/schedule/1:${gym.id}"[^>]*>.*?<span class="cal-personal">Personal:</span> <span class="cal-title">Gym</span>`,
        ),
        view,
      );
      assert.match(page.html, /<span class="cal-title">Team sync<\/span>/, view);
      await assertValidHtml(page.html, `personal calendar ${view}`);
    }
    const month = await w.aliceWeb.get("/schedule?date=2026-05-01");
    assert.deepEqual(cellTitles(month.html, "2026-05-12"), ["Gym", "Team sync"]);
    const bobs = await w.bobWeb.get("/schedule?date=2026-05-01");
    assert.deepEqual(cellTitles(bobs.html, "2026-05-12"), ["Team sync"], "Alice's personal event is hers alone");
  });

  it("edits a whole event, moves and cancels one occurrence of a repeating one, and deletes", async () => {
    const answer = await create(
      { title: "Run", startDate: "2026-06-01", endDate: "2026-06-01", repeat: "WEEKLY", ends: "count", count: "4" },
      [["byDay", "MO"]],
    );
    assert.equal(answer.status, 303);
    const run = (await aliceEvent("Run"))!;
    assert.equal(run.rule, "FREQ=WEEKLY;BYDAY=MO;COUNT=4");
    const path = `/schedule/1:${run.id}`;
    const at8 = "2026-06-08T09:00:00Z";
    const edit = await w.aliceWeb.get(`${path}/edit?at=${at8}`);
    assert.equal(edit.status, 200);
    assert.match(edit.html, /value="occurrence" checked/);
    await assertValidHtml(edit.html, "personal edit form at an occurrence");
    const moved = await w.aliceWeb.postPairs(`${path}/edit?at=${at8}`, [
      ["_csrf", w.aliceWeb.csrf()],
      ["scope", "occurrence"],
      ...w.fields({
        title: "Run",
        startDate: "2026-06-10",
        endDate: "2026-06-10",
        startTime: "07:00",
        endTime: "08:00",
      }),
    ]);
    assert.equal(moved.status, 303);
    assert.equal(moved.location, `${path}?at=${encodeURIComponent(at8)}`);
    const movedPage = await w.aliceWeb.get(`${path}?at=${at8}`);
    assert.match(movedPage.html, /Moved/);
    assert.match(movedPage.html, /Every week on Mon, 4 times/);
    await assertValidHtml(movedPage.html, "moved personal occurrence");
    await w.aliceWeb.get(`${path}?at=2026-06-15T09:00:00Z`);
    const cancelled = await w.aliceWeb.post(`${path}/delete`, { at: "2026-06-15T09:00:00Z", scope: "occurrence" });
    assert.equal(cancelled.status, 303);
    assert.deepEqual((await aliceEvent("Run"))!.exceptions, [
      {
        originalStart: Date.UTC(2026, 5, 8, 9),
        cancelled: false,
        start: Date.UTC(2026, 5, 10, 7),
        end: Date.UTC(2026, 5, 10, 8),
      },
      { originalStart: Date.UTC(2026, 5, 15, 9), cancelled: true },
    ]);
    const month = await w.aliceWeb.get("/schedule?date=2026-06-01");
    assert.ok(cellTitles(month.html, "2026-06-01").includes("Run"));
    assert.ok(!cellTitles(month.html, "2026-06-08").includes("Run"), "moved away");
    assert.ok(cellTitles(month.html, "2026-06-10").includes("Run"), "moved here");
    assert.ok(!cellTitles(month.html, "2026-06-15").includes("Run"), "cancelled");
    assert.ok(cellTitles(month.html, "2026-06-22").includes("Run"));
    await w.aliceWeb.get(`${path}/edit`);
    const series = await w.aliceWeb.postPairs(`${path}/edit`, [
      ["_csrf", w.aliceWeb.csrf()],
      ...w.fields({
        title: "Morning run",
        startDate: "2026-06-01",
        endDate: "2026-06-01",
        repeat: "WEEKLY",
        ends: "count",
        count: "4",
      }),
      ["byDay", "MO"],
    ]);
    assert.equal(series.status, 303);
    const renamed = (await aliceEvent("Morning run"))!;
    assert.equal(renamed.id, run.id);
    assert.equal(renamed.exceptions.length, 2, "the moved and cancelled occurrences are kept");
    await w.aliceWeb.get(path);
    assert.equal((await w.aliceWeb.post(`${path}/delete`, {})).status, 303);
    assert.equal(await aliceEvent("Morning run"), undefined);
    assert.equal((await w.aliceWeb.get(path)).status, 404);
  });

  it("moves one day of a repeating all-day personal event to another day", async () => {
    const answer = await create(
      {
        title: "Holiday",
        startDate: "2026-08-03",
        endDate: "2026-08-03",
        repeat: "DAILY",
        ends: "count",
        count: "3",
        zone: "Asia/Tokyo",
      },
      [["allDay", "on"]],
    );
    assert.equal(answer.status, 303);
    const holiday = (await aliceEvent("Holiday"))!;
    const at = new Date(holiday.start + 24 * 60 * 60 * 1000).toISOString().replace(/\.000Z$/, "Z");
    const path = `/schedule/1:${holiday.id}`;
    await w.aliceWeb.get(`${path}/edit?at=${at}`);
    const moved = await w.aliceWeb.postPairs(`${path}/edit?at=${at}`, [
      ["_csrf", w.aliceWeb.csrf()],
      ["scope", "occurrence"],
      ["allDay", "on"],
      ...w.fields({
        title: "Holiday",
        startDate: "2026-08-10",
        endDate: "2026-08-10",
        zone: "Asia/Tokyo",
        repeat: "DAILY",
        ends: "count",
        count: "3",
      }),
    ]);
    assert.equal(moved.status, 303);
    const month = await w.aliceWeb.get("/schedule?date=2026-08-01");
    assert.ok(cellTitles(month.html, "2026-08-03").includes("Holiday"));
    assert.ok(!cellTitles(month.html, "2026-08-04").includes("Holiday"), "moved away");
    assert.ok(cellTitles(month.html, "2026-08-05").includes("Holiday"));
    assert.ok(cellTitles(month.html, "2026-08-10").includes("Holiday"), "moved here");
    const stored = (await aliceEvent("Holiday"))!;
    assert.equal(stored.exceptions.length, 1);
    assert.equal(stored.exceptions[0]?.originalStart, Date.UTC(2026, 7, 3, 15));
  });

  it("speaks Japanese on the personal pages", async () => {
    const web = new WebClient(w.server.url, "ja");
    await web.signIn(w.alice.email);
    assert.match((await web.get("/schedule/new")).html, /個人の予定の追加/);
    await create({ title: "歯医者", startDate: "2026-09-01", endDate: "2026-09-01" });
    const event = (await aliceEvent("歯医者"))!;
    assert.match((await web.get(`/schedule/1:${event.id}`)).html, /この予定はあなただけに表示されます。/);
    assert.match((await web.get(`/schedule/1:${event.id}/edit`)).html, /個人の予定の編集/);
    assert.match((await web.get("/schedule?date=2026-09-01")).html, /<span class="cal-personal">個人:<\/span>/);
  });

  it("refuses bad input in the form, says why, and stores nothing; the title at its 200/201 boundary", async () => {
    const count = (await mine(w.alice.id)).length;
    for (const [values, message] of [
      [{ title: "" }, "The event title is missing or empty."],
      [{ startTime: "25:00" }, "The start must be a time such as 09:30."],
      [{ endTime: "08:00" }, "endTime must be later than startTime."],
      [{ zone: "Mars/Base" }, "IANA time zone"],
      [{ title: "t".repeat(LIMITS.eventTitleMaxChars + 1) }, "title"],
    ] as const) {
      const answer = await create({ title: "Kept title", ...values });
      assert.equal(answer.status, 400, JSON.stringify(values));
      assert.ok(answer.html.includes(message), `${JSON.stringify(values)}: ${message}`);
      await assertValidHtml(answer.html, "personal form with its error");
    }
    const shared = await create({ title: "Shared?" }, [["participants", `1:${w.bob.id}`]]);
    assert.equal(shared.status, 400, "a personal event names no participants");
    assert.equal((await mine(w.alice.id)).length, count);
    const longest = await create({ title: "t".repeat(LIMITS.eventTitleMaxChars) });
    assert.equal(longest.status, 303);
    assert.equal((await mine(w.alice.id)).length, count + 1);
  });

  it("answers anyone but the owner 404 on the page, the edit form and every POST, changing nothing", async () => {
    await create({
      title: "Secret",
      startDate: "2026-07-01",
      endDate: "2026-07-01",
      repeat: "DAILY",
      ends: "count",
      count: "3",
    });
    const secret = (await aliceEvent("Secret"))!;
    const path = `/schedule/1:${secret.id}`;
    const unknown = await w.bobWeb.get("/schedule/1:999999");
    assert.equal(unknown.status, 404);
    for (const web of [w.bobWeb, w.carolWeb]) {
      for (const url of [path, `${path}?at=2026-07-02T09:00:00Z`, `${path}/edit`, `/m${path}`]) {
        const answer = await web.get(url);
        assert.equal(answer.status, 404, url);
        assert.doesNotMatch(answer.html, /Secret/);
      }
      await web.get("/schedule");
      for (const url of [`${path}/edit`, `${path}/delete`, `${path}/edit?at=2026-07-02T09:00:00Z`])
        assert.equal(
          (
            await web.post(url, {
              ...Object.fromEntries(w.fields({ title: "Hijacked" })),
              scope: "occurrence",
              at: "2026-07-02T09:00:00Z",
            })
          ).status,
          404,
          url,
        );
    }
    const after = (await aliceEvent("Secret"))!;
    assert.deepEqual(after.exceptions, []);
    assert.equal(after.updatedAt, secret.updatedAt);
    assert.equal((await w.aliceWeb.get("/schedule/new")).status, 200);
    assert.equal((await w.aliceWeb.get("/schedule/abc")).status, 404);
  });
});
