import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import { assertValidHtml } from "../support/web.js";
import { type CalendarWorld, cellTitles, startCalendarWorld } from "./calendar-world.js";

describeEachBackend("web pages: writing events", (backend) => {
  let w: CalendarWorld;
  before(async () => {
    w = await startCalendarWorld(backend);
  });
  after(() => w.server.close());

  it("refuses bad input in the form, says why, keeps what was typed and stores nothing", async () => {
    const before = (await w.events()).length;
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
      const answer = await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Kept title", ...values }));
      assert.equal(answer.status, 400, JSON.stringify(values));
      assert.ok(answer.html.includes(message), `${JSON.stringify(values)}: ${message}`);
      if (!("title" in values)) assert.match(answer.html, /value="Kept title"/);
    }
    assert.equal((await w.events()).length, before);
  });

  it("takes every limit at its boundary and refuses one past it", async () => {
    const title = "t".repeat(LIMITS.eventTitleMaxChars);
    for (const [values, ok] of [
      [{ title }, true],
      [{ title: `${title}t` }, false],
      [{ repeat: "DAILY", interval: "9999", ends: "count", count: "9999" }, true],
      [{ repeat: "DAILY", interval: "10000" }, false],
      [{ repeat: "DAILY", ends: "count", count: "10000" }, false],
      [{ startDate: "2026-04-08", endDate: "2027-04-09", startTime: "09:00", endTime: "09:00" }, true],
      [{ startDate: "2026-04-08", endDate: "2027-04-09", startTime: "09:00", endTime: "09:01" }, false],
    ] as const) {
      const answer = await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Edge", ...values }));
      assert.equal(answer.status, ok ? 303 : 400, JSON.stringify(values));
    }
    await w.aliceWeb.get(`${w.g}/events/lists`);
    const name = "n".repeat(LIMITS.eventMenuNameMaxChars);
    assert.equal(
      (await w.aliceWeb.post(`${w.g}/events/lists`, { list: "facilities", change: "add", name })).status,
      303,
    );
    const long = await w.aliceWeb.post(`${w.g}/events/lists`, { list: "facilities", change: "add", name: `${name}n` });
    assert.equal(long.status, 400);
    await assertValidHtml(long.html, "menus page with its error");
  });

  it("lets only the creator, participants and managers edit; a member who may not edit gets 403 and changes nothing", async () => {
    await w.send(w.aliceWeb, `${w.g}/events/new`, [
      ...w.fields({ title: "Private" }),
      ["participants", `1:${w.alice.id}`],
    ]);
    const event = (await w.byTitle("Private"))!;
    const path = `${w.g}/events/1:${event.id}`;
    const page = await w.bobWeb.get(path);
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.html, /\/edit"/, "no edit link");
    assert.equal((await w.bobWeb.get(`${path}/edit`)).status, 403);
    await w.bobWeb.get(path);
    assert.equal(
      (await w.bobWeb.postPairs(`${path}/edit`, [["_csrf", w.bobWeb.csrf()], ...w.fields({ title: "Hijacked" })]))
        .status,
      403,
    );
    assert.equal((await w.bobWeb.post(`${path}/delete`, {})).status, 403);
    assert.equal((await w.byTitle("Private"))?.id, event.id);
    assert.equal((await w.bobWeb.get(`${w.g}/events/lists`)).status, 403, "menus are the managers'");
  });

  it("refuses a non-member every calendar page and form, naming nothing of the group", async () => {
    await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields());
    const event = (await w.byTitle("Standup"))!;
    const path = `${w.g}/events/1:${event.id}`;
    for (const url of [
      `${w.g}/events`,
      `${w.g}/events?view=week`,
      `${w.g}/events/new`,
      path,
      `${path}/edit`,
      `${w.g}/events/lists`,
    ]) {
      const answer = await w.carolWeb.get(url);
      assert.equal(answer.status, 403, url);
      assert.match(answer.html, /You are not a member of this group, or it does not exist\./);
      assert.doesNotMatch(answer.html, /Standup/);
    }
    await w.carolWeb.get("/schedule");
    for (const url of [
      `${w.g}/events/new`,
      `${path}/edit`,
      `${path}/delete`,
      `${w.g}/events/lists`,
      `${path}/like`,
      `${path}/comments`,
    ])
      assert.equal(
        (await w.carolWeb.post(url, { title: "x", text: "hi", list: "menus", change: "add", name: "x" })).status,
        403,
        url,
      );
    assert.equal((await w.byTitle("Standup"))?.title, "Standup");
    assert.equal((await w.carolWeb.get(`/g/1:999999/events`)).status, 404, "a group that does not exist");
  });

  it("lets managers add, rename and remove menus and facilities, and filters the calendar by menu", async () => {
    const page = await w.aliceWeb.get(`${w.g}/events/lists`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "menus page");
    assert.equal(
      (await w.aliceWeb.post(`${w.g}/events/lists`, { list: "menus", change: "add", name: "Meeting" })).status,
      303,
    );
    assert.equal(
      (await w.aliceWeb.post(`${w.g}/events/lists`, { list: "facilities", change: "add", name: "Room A" })).status,
      303,
    );
    // Every list of the event form is a picker of checkboxes: nothing needs Ctrl-click.
    const form = await w.aliceWeb.get(`${w.g}/events/new`);
    assert.match(form.html, /<input type="checkbox" name="facilities" value="1:\d+"> Room A</);
    assert.match(form.html, /<input type="checkbox" name="participants"/);
    assert.match(form.html, /<input type="checkbox" name="byDay" value="MO"/);
    assert.doesNotMatch(form.html, /<select[^>]* multiple/);
    await assertValidHtml(form.html, "event form with a facility");
    const empty = await w.aliceWeb.post(`${w.g}/events/lists`, { list: "menus", change: "add", name: "  " });
    assert.equal(empty.status, 400);
    const [menu] = await w.server.store.read((tx) => tx.events.listNamed("event_menus", w.group.id));
    assert.equal(menu?.name, "Meeting");
    await w.aliceWeb.get(`${w.g}/events/lists`);
    assert.equal(
      (
        await w.aliceWeb.post(`${w.g}/events/lists`, {
          list: "menus",
          change: "rename",
          id: `1:${menu!.id}`,
          name: "Meetings",
        })
      ).status,
      303,
    );
    await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Board meeting", menu: `1:${menu!.id}`, startDate: "2026-04-23", endDate: "2026-04-23" }),
    );
    const filtered = await w.aliceWeb.get(`${w.g}/events?date=2026-04-01&menu=1:${menu!.id}`);
    assert.deepEqual(cellTitles(filtered.html, "2026-04-23"), ["Board meeting"]);
    assert.deepEqual(cellTitles(filtered.html, "2026-04-08"), []);
    await w.aliceWeb.get(`${w.g}/events/lists`);
    assert.equal(
      (await w.aliceWeb.post(`${w.g}/events/lists`, { list: "menus", change: "remove", id: `1:${menu!.id}` })).status,
      303,
    );
    assert.equal((await w.byTitle("Board meeting"))?.menuId, null);
  });

  it("keeps a rule the form has no fields for (written through the API) when the event is saved", async () => {
    const custom = { repeat: "CUSTOM", rule: "FREQ=MONTHLY;BYDAY=2TU", startDate: "2026-04-14", endDate: "2026-04-14" };
    await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Second Tuesday", ...custom }));
    const event = (await w.byTitle("Second Tuesday"))!;
    assert.equal(event.rule, "FREQ=MONTHLY;BYDAY=2TU");
    const edit = await w.aliceWeb.get(`${w.g}/events/1:${event.id}/edit`);
    assert.match(edit.html, /<option value="CUSTOM" selected>As set before: Every month on 2nd Tue<\/option>/);
    assert.match(edit.html, /<input type="hidden" name="rule" value="FREQ=MONTHLY;BYDAY=2TU">/);
    await assertValidHtml(edit.html, "edit form of a custom rule");
    const saved = await w.aliceWeb.postPairs(`${w.g}/events/1:${event.id}/edit`, [
      ["_csrf", w.aliceWeb.csrf()],
      ...w.fields({ title: "Second Tuesday sync", ...custom }),
    ]);
    assert.equal(saved.status, 303);
    assert.equal((await w.byTitle("Second Tuesday sync"))?.rule, "FREQ=MONTHLY;BYDAY=2TU");
    const bad = await w.send(
      w.aliceWeb,
      `${w.g}/events/new`,
      w.fields({ title: "Bad", repeat: "CUSTOM", rule: "FREQ=HOURLY" }),
    );
    assert.equal(bad.status, 400);
    assert.match(bad.html, /FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY/);
  });

  it("deletes a whole event from its page", async () => {
    await w.send(w.aliceWeb, `${w.g}/events/new`, w.fields({ title: "Doomed" }));
    const event = (await w.byTitle("Doomed"))!;
    const path = `${w.g}/events/1:${event.id}`;
    await w.aliceWeb.get(path);
    const answer = await w.aliceWeb.post(`${path}/delete`, {});
    assert.equal(answer.status, 303);
    assert.equal(await w.byTitle("Doomed"), undefined);
    assert.equal((await w.aliceWeb.get(path)).status, 404);
  });
});
