// The calendar addresses (docs/api.md "Calendar feeds") over real HTTP, read back with an
// independent parser (Mozilla's ical.js): the times, rules and exceptions it expands, escaping and
// folding on the bytes, and every way an address stops serving.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import ICAL from "ical.js";
import { hashToken } from "../../src/auth/token.js";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { postEvent, postPersonalEvent } from "../support/events.js";
import type { TestUser } from "../support/factories.js";
import { type Answer, atomText, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

const MEMO = 'Bring: pens, paper; a "backslash" \\ here\nsecond line';
const LONG_MEMO = "会議の議題について話し合います。".repeat(40);

type Calendar = InstanceType<typeof ICAL.Component>;

function parseCalendar(text: string): Calendar {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  return calendar;
}

/** The VEVENTs with this SUMMARY: the master first, then its RECURRENCE-ID overrides. */
function eventsTitled(calendar: Calendar, title: string): Calendar[] {
  return calendar
    .getAllSubcomponents("vevent")
    .filter((vevent) => vevent.getFirstPropertyValue("summary") === title)
    .sort((a, b) => Number(a.hasProperty("recurrence-id")) - Number(b.hasProperty("recurrence-id")));
}

/** The occurrences of a series as ical.js expands it (exceptions applied): [local start, UTC start]. */
function expand(calendar: Calendar, title: string, max = 20): { local: string; utc: string }[] {
  const [master, ...overrides] = eventsTitled(calendar, title);
  const event = new ICAL.Event(master!, { exceptions: overrides });
  const iterator = event.iterator();
  const out: { local: string; utc: string }[] = [];
  for (let next = iterator.next(); next && out.length < max; next = iterator.next()) {
    const start = event.getOccurrenceDetails(next).startDate;
    out.push({ local: start.toString(), utc: new Date(start.toUnixTime() * 1000).toISOString() });
  }
  return out;
}

function unfoldedLines(text: string): string[] {
  return text.replace(/\r\n[ \t]/g, "").split("\r\n");
}

describeEachBackend("GET /ical/<secret>/...", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let other: Group;
  let secret = "";
  const feed = (path: string, headers: Record<string, string> = {}) =>
    request(`${server.url}/ical/${secret}${path}`, { headers });
  const groupFeed = () => feed(`/group/1:${group.id}.ics`);
  const setSecret = async (user: TestUser, value: string) =>
    server.store.transaction((tx) => tx.calendarFeeds.replace(user.id, hashToken(value), server.clock.now()));
  const add = async (title: string, start: string, end: string, extra = "", summary = "") => {
    const answer = await postEvent(server.url, alice.token, { groupId: group.id, title, start, end, extra, summary });
    assert.equal(answer.status, 200, answer.text);
    return atomText(entriesOf(answer.xml)[0]!, "id")!;
  };

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    outsider = await f.user({ name: "Olga" });
    group = await f.group([alice, bob], { name: "Dev; team, Tokyo" });
    other = await f.group([outsider], { name: "Elsewhere" });
    const menu = await server.store.transaction((tx) => tx.events.insertNamed("event_menus", group.id, "会議", 0));
    const room = await server.store.transaction((tx) => tx.events.insertNamed("facilities", group.id, "Room A, 3F", 0));
    await add(
      "kickoff",
      "2026-04-10T01:00:00Z",
      "2026-04-10T02:00:00Z",
      `<cblSch:menu id="1:${menu.id}"/><cbl:who id="1:${bob.id}"/><cbl:facility id="1:${room.id}"/>`,
      MEMO.replace(/&/g, "&amp;").replace(/</g, "&lt;"),
    );
    await add(
      "holiday",
      "2026-04-29",
      "2026-04-29",
      "<cblSch:allDay>true</cblSch:allDay><cblSch:timeZone>Asia/Tokyo</cblSch:timeZone>",
    );
    // 09:00 in Berlin each Thursday: 08:00Z before the change to summer time on 2026-03-29, 07:00Z after.
    await add(
      "weekly",
      "2026-03-19T08:00:00Z",
      "2026-03-19T09:00:00Z",
      "<cblSch:timeZone>Europe/Berlin</cblSch:timeZone><cblSch:rule>FREQ=WEEKLY;COUNT=5</cblSch:rule>" +
        '<cblSch:recurrence><cbl:when startTime="2026-04-09T10:00:00Z" endTime="2026-04-09T11:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-09T07:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-02T07:00:00Z" cancelled="true"/></cblSch:recurrence>',
    );
    // All day each Monday in New York, across the change of 2026-03-08, until a date.
    await add(
      "standup day",
      "2026-03-02",
      "2026-03-02",
      "<cblSch:allDay>true</cblSch:allDay><cblSch:timeZone>America/New_York</cblSch:timeZone>" +
        "<cblSch:rule>FREQ=WEEKLY;UNTIL=20260316</cblSch:rule>" +
        '<cblSch:recurrence><cblSch:exception startTime="2026-03-09T04:00:00Z" cancelled="true"/></cblSch:recurrence>',
    );
    await add("long memo", "2026-05-01T00:00:00Z", "2026-05-01T01:00:00Z", "", LONG_MEMO);
    await add("long ago", "2025-01-10T00:00:00Z", "2025-01-10T01:00:00Z");
    secret = "alice-calendar-secret-0123456789";
    await setSecret(alice, secret);
  });
  after(() => server.close());

  it("serves the group's events as an iCalendar with its name, and no Atom", async () => {
    const answer = await groupFeed();
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get("content-type"), "text/calendar; charset=utf-8");
    assert.ok(answer.text.startsWith("BEGIN:VCALENDAR\r\n"));
    assert.ok(answer.text.endsWith("END:VCALENDAR") || answer.text.endsWith("END:VCALENDAR\r\n"));
    const calendar = parseCalendar(answer.text);
    assert.equal(calendar.getFirstPropertyValue("version"), "2.0");
    assert.equal(calendar.getFirstPropertyValue("calscale"), "GREGORIAN");
    // RFC 5545 §3.4: the calendar's properties come before its components, nothing after them.
    const head = answer.text.slice(0, answer.text.indexOf("\r\nBEGIN:V", 1));
    for (const property of ["VERSION:2.0\r\n", "PRODID:", "CALSCALE:GREGORIAN\r\n", "X-WR-CALNAME:"])
      assert.ok(head.includes(property), property);
    assert.ok(/END:VEVENT\r\nEND:VCALENDAR(\r\n)?$/.test(answer.text));
    assert.match(String(calendar.getFirstPropertyValue("prodid")), /Kairan/);
    // ical.js reads an X- property's value raw: the escaped text is checked below on the bytes.
    assert.ok(answer.text.includes("X-WR-CALNAME:Dev\\; team\\, Tokyo\r\n"));
    const titles = new Set(calendar.getAllSubcomponents("vevent").map((v) => v.getFirstPropertyValue("summary")));
    assert.deepEqual([...titles].sort(), ["holiday", "kickoff", "long memo", "standup day", "weekly"]);
    assert.deepEqual(
      calendar
        .getAllSubcomponents("vtimezone")
        .map((zone) => zone.getFirstPropertyValue("tzid"))
        .sort(),
      ["Europe/Berlin"],
    );
  });

  it("writes a one-off event with a stable UID, its page, memo, menu and facilities, escaped", async () => {
    const answer = await groupFeed();
    const [kickoff] = eventsTitled(parseCalendar(answer.text), "kickoff");
    const host = new URL(server.url).host;
    const uid = String(kickoff!.getFirstPropertyValue("uid"));
    assert.match(uid, new RegExp(`^GROUP,1:${group.id},GW_SCHEDULE,1:\\d+@${host.replace(/\./g, "\\.")}$`));
    const number = /GW_SCHEDULE,1:(\d+)@/.exec(uid)![1];
    assert.equal(kickoff!.getFirstPropertyValue("url"), `${server.url}/g/1:${group.id}/events/1:${number}`);
    assert.equal(kickoff!.getFirstPropertyValue("description"), MEMO);
    assert.equal(kickoff!.getFirstPropertyValue("location"), "Room A, 3F");
    assert.equal(kickoff!.getFirstPropertyValue("categories"), "会議");
    const start = kickoff!.getFirstPropertyValue("dtstart") as InstanceType<typeof ICAL.Time>;
    assert.equal(new Date(start.toUnixTime() * 1000).toISOString(), "2026-04-10T01:00:00.000Z");
    assert.ok(kickoff!.getFirstPropertyValue("dtstamp"));
    // On the bytes: TEXT escaping of RFC 5545 §3.3.11.
    const line = unfoldedLines(answer.text).find((l) => l.startsWith("DESCRIPTION:") && l.includes("pens"));
    assert.equal(line, 'DESCRIPTION:Bring: pens\\, paper\\; a "backslash" \\\\ here\\nsecond line');
    assert.ok(unfoldedLines(answer.text).includes("LOCATION:Room A\\, 3F"));
  });

  it("writes all-day events as DATE values of their local days", async () => {
    const answer = await groupFeed();
    const [holiday] = eventsTitled(parseCalendar(answer.text), "holiday");
    const start = holiday!.getFirstPropertyValue("dtstart") as InstanceType<typeof ICAL.Time>;
    const end = holiday!.getFirstPropertyValue("dtend") as InstanceType<typeof ICAL.Time>;
    assert.equal(start.isDate, true);
    assert.equal(start.toString(), "2026-04-29");
    assert.equal(end.toString(), "2026-04-30");
    assert.ok(answer.text.includes("DTSTART;VALUE=DATE:20260429\r\n"));
  });

  it("keeps a timed series at 09:00 Berlin across the change of offset, with a moved and a cancelled occurrence", async () => {
    const calendar = parseCalendar((await groupFeed()).text);
    const [master, moved] = eventsTitled(calendar, "weekly");
    assert.equal(master!.getFirstProperty("dtstart")!.getParameter("tzid"), "Europe/Berlin");
    assert.equal(String(master!.getFirstPropertyValue("rrule")), "FREQ=WEEKLY;COUNT=5");
    assert.equal(master!.getFirstProperty("exdate")!.getParameter("tzid"), "Europe/Berlin");
    assert.equal(master!.getFirstPropertyValue("exdate")!.toString(), "2026-04-02T09:00:00");
    assert.equal(moved!.getFirstPropertyValue("uid"), master!.getFirstPropertyValue("uid"));
    assert.equal(moved!.getFirstPropertyValue("recurrence-id")!.toString(), "2026-04-09T09:00:00");
    assert.deepEqual(expand(calendar, "weekly"), [
      { local: "2026-03-19T09:00:00", utc: "2026-03-19T08:00:00.000Z" },
      { local: "2026-03-26T09:00:00", utc: "2026-03-26T08:00:00.000Z" },
      { local: "2026-04-09T12:00:00", utc: "2026-04-09T10:00:00.000Z" },
      { local: "2026-04-16T09:00:00", utc: "2026-04-16T07:00:00.000Z" },
    ]);
  });

  it("repeats an all-day series on DATE values across the change of offset, UNTIL a DATE, EXDATE a DATE", async () => {
    const answer = await groupFeed();
    const calendar = parseCalendar(answer.text);
    const [master] = eventsTitled(calendar, "standup day");
    assert.equal(String(master!.getFirstPropertyValue("rrule")), "FREQ=WEEKLY;UNTIL=20260316");
    assert.ok(answer.text.includes("EXDATE;VALUE=DATE:20260309\r\n"));
    assert.deepEqual(
      expand(calendar, "standup day").map((occurrence) => occurrence.local),
      ["2026-03-02", "2026-03-16"],
    );
  });

  it("folds lines at 75 octets without splitting a UTF-8 sequence, and unfolds to the memo", async () => {
    const answer = await groupFeed();
    const bytes = Buffer.from(answer.text, "utf8");
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let start = 0;
    for (let at = bytes.indexOf("\r\n"); at !== -1; at = bytes.indexOf("\r\n", start)) {
      const line = bytes.subarray(start, at);
      assert.ok(line.length <= 75, `a line of ${line.length} octets`);
      decoder.decode(line); // throws on a split sequence
      start = at + 2;
    }
    const [event] = eventsTitled(parseCalendar(answer.text), "long memo");
    assert.equal(event!.getFirstPropertyValue("description"), LONG_MEMO);
    assert.ok(answer.text.split("\r\n").filter((line) => line.startsWith(" 会") || line.startsWith(" ")).length > 5);
  });

  it("leaves out events that ended more than a year ago", async () => {
    const calendar = parseCalendar((await groupFeed()).text);
    assert.equal(eventsTitled(calendar, "long ago").length, 0);
  });

  it("me.ics holds the owner's personal events and the group events they take part in, named after them", async () => {
    const personal = await postPersonalEvent(server.url, alice.token, {
      title: "dentist",
      start: "2026-04-14T00:30:00Z",
      end: "2026-04-14T01:30:00Z",
      extra: "<cblSch:timeZone>Asia/Tokyo</cblSch:timeZone><cblSch:rule>FREQ=MONTHLY;COUNT=2</cblSch:rule>",
    });
    assert.equal(personal.status, 200, personal.text);
    const mine = parseCalendar((await feed("/me.ics")).text);
    assert.equal(mine.getFirstPropertyValue("x-wr-calname"), "Kairan: Alice");
    const titles = new Set(mine.getAllSubcomponents("vevent").map((v) => v.getFirstPropertyValue("summary")));
    // Kickoff names Bob only.
    assert.deepEqual([...titles].sort(), ["dentist", "holiday", "long memo", "standup day", "weekly"]);
    const [dentist] = eventsTitled(mine, "dentist");
    assert.match(String(dentist!.getFirstPropertyValue("uid")), /^MYPAGE,1:\d+,MP_SCHEDULE,1:\d+@/);
    assert.equal(String(dentist!.getFirstPropertyValue("rrule")), "FREQ=MONTHLY;COUNT=2");
    assert.match(String(dentist!.getFirstPropertyValue("url")), /\/schedule\/1:\d+$/);
    assert.equal(eventsTitled(parseCalendar((await groupFeed()).text), "dentist").length, 0, "not in the group's feed");
    await setSecret(bob, "bob-calendar-secret-0123456789ab");
    const bobs = await request(`${server.url}/ical/bob-calendar-secret-0123456789ab/me.ics`);
    assert.equal(bobs.status, 200);
    assert.ok(eventsTitled(parseCalendar(bobs.text), "kickoff").length === 1);
    assert.equal(eventsTitled(parseCalendar(bobs.text), "dentist").length, 0, "Alice's personal event is hers alone");
  });

  it("answers 304 to a matching If-None-Match, and a new tag once an event changes", async () => {
    const first = await groupFeed();
    const tag = first.headers.get("etag")!;
    assert.match(tag, /^".+"$/);
    const again = await feed(`/group/1:${group.id}.ics`, { "if-none-match": tag });
    assert.equal(again.status, 304);
    assert.equal(again.text, "");
    await add("added later", "2026-06-01T00:00:00Z", "2026-06-01T01:00:00Z");
    const changed = await feed(`/group/1:${group.id}.ics`, { "if-none-match": tag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), tag);
  });

  it("tags a compressed answer apart from the identity bytes, and either tag earns a 304", async () => {
    const plain = await feed(`/group/1:${group.id}.ics`, { "accept-encoding": "identity" });
    const zipped = await fetch(`${server.url}/ical/${secret}/group/1:${group.id}.ics`, {
      headers: { "accept-encoding": "gzip" },
    });
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    assert.equal(await zipped.text(), plain.text);
    const tag = zipped.headers.get("etag")!;
    assert.equal(tag, `${plain.headers.get("etag")!.slice(0, -1)}.gzip"`);
    assert.equal((await feed(`/group/1:${group.id}.ics`, { "if-none-match": tag })).status, 304);
  });

  it("is the same 404 for an unknown secret, a group not joined, an unknown or malformed group", async () => {
    const answers: Answer[] = [
      await request(`${server.url}/ical/no-such-secret-000000000000000000/me.ics`),
      await request(`${server.url}/ical/no-such-secret-000000000000000000/group/1:${group.id}.ics`),
      await feed(`/group/1:${other.id}.ics`),
      await feed("/group/1:999999.ics"),
      await feed(`/group/1:${group.id}`),
      await feed("/group/GROUP.ics"),
    ];
    const bodies = new Set(answers.map((answer) => `${answer.status} ${answer.text}`));
    assert.deepEqual([...answers.map((answer) => answer.status)], [404, 404, 404, 404, 404, 404]);
    assert.equal(bodies.size, 1, [...bodies].join("\n"));
  });

  it("stops at once when the owner leaves the group or their account is disabled", async () => {
    const carol = await server.factories.user({ name: "Carol" });
    const shared = await server.factories.group([alice, carol]);
    await setSecret(carol, "carol-calendar-secret-0123456789");
    const url = `${server.url}/ical/carol-calendar-secret-0123456789`;
    assert.equal((await request(`${url}/group/1:${shared.id}.ics`)).status, 200);
    await server.store.transaction(async (tx) => {
      const membership = await tx.memberships.findJoined(shared.id, carol.id);
      await tx.memberships.remove(membership!.id);
    });
    assert.equal((await request(`${url}/group/1:${shared.id}.ics`)).status, 404);
    assert.equal((await request(`${url}/me.ics`)).status, 200);
    await server.store.transaction((tx) => tx.users.update(carol.id, { disabledAt: server.clock.now() }));
    assert.equal((await request(`${url}/me.ics`)).status, 404);
  });

  it("answers 405 to other methods", async () => {
    const answer = await request(`${server.url}/ical/${secret}/me.ics`, { method: "POST", body: "x" });
    assert.equal(answer.status, 405);
  });
});
