// Mail reminders before group events (#31 part 5): chosen on the event page, mailed when due in
// the reader's language and zone, moved on to the next occurrence of a repeating event, placed
// again when the event moves, and never sent to someone who left the group.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { nextReminderAt, parseReminderMinutes } from "../../src/domain/event-reminder.js";
import { replaceEventFields } from "../../src/services/event/event-write.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type OutboxReader, openOutbox, runMailer, setMail } from "../support/mail-notify.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describeEachBackend("mail reminders before events", (backend) => {
  let server: TestServer;
  let outbox: OutboxReader;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;
  let g: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend, { locale: "en" });
    outbox = openOutbox(server);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    group = await server.factories.group([alice, bob, carol], { name: "Ops", managers: [alice] });
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url, "ja");
    await bobWeb.signIn(bob.email);
  });
  after(async () => {
    await outbox?.close();
    await server?.close();
  });

  /** An event starting `inMs` from now, one hour long, weekly when `weekly`. */
  async function event(title: string, inMs: number, weekly = false): Promise<number> {
    const start = Math.floor((server.clock.now() + inMs) / MINUTE) * MINUTE;
    return server.store.transaction((tx) =>
      tx.events.insert({
        groupId: group.id,
        creatorId: alice.id,
        title,
        memo: "",
        start,
        end: start + HOUR,
        allDay: false,
        timeZone: "UTC",
        rule: weekly ? "FREQ=WEEKLY" : null,
        seriesEnd: weekly ? null : start + HOUR,
        menuId: null,
        participantIds: [],
        facilityIds: [],
        exceptions: [],
        at: server.clock.now(),
      }),
    );
  }

  async function remind(web: WebClient, eventId: number, minutes: string) {
    const page = await web.get(`${g}/events/1:${eventId}`);
    assert.equal(page.status, 200);
    return web.post(`${g}/events/1:${eventId}/reminder`, { minutes });
  }

  it("offers the choice on the event page, keeps it, and refuses anything else, changing nothing", async () => {
    const id = await event("Stand-up", 3 * HOUR);
    const page = await aliceWeb.get(`${g}/events/1:${id}`);
    await assertValidHtml(page.html, "event page with the reminder form");
    assert.match(page.html, /<option value="0" selected>no reminder<\/option>/);
    assert.equal((await remind(aliceWeb, id, "60")).status, 303);
    assert.match(
      (await aliceWeb.get(`${g}/events/1:${id}`)).html,
      /<option value="60" selected>1 hour before<\/option>/,
    );
    for (const bad of ["61", "-10", "abc", "1441"]) {
      assert.equal((await remind(aliceWeb, id, bad)).status, 400, bad);
      assert.match((await aliceWeb.get(`${g}/events/1:${id}`)).html, /<option value="60" selected>/, bad);
    }
    assert.equal((await remind(aliceWeb, id, "0")).status, 303);
    assert.match((await aliceWeb.get(`${g}/events/1:${id}`)).html, /<option value="0" selected>/);
  });

  it("mails the reminder when it is due, once, with the time and its zone", async () => {
    await setMail(server, bob.id, { mode: "digest" });
    const id = await event("Release planning", 3 * HOUR);
    assert.equal((await remind(bobWeb, id, "60")).status, 303);
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "not yet");
    server.clock.advance(2 * HOUR + MINUTE);
    const pass = await runMailer(server);
    assert.equal(pass.reminders, 1);
    const [mail, ...rest] = await outbox.fresh();
    assert.equal(rest.length, 0);
    assert.equal(mail?.to, bob.email);
    assert.equal(mail?.subject, "[Ops] Release planning");
    assert.match(mail?.text ?? "", /^Reminder: the event “Release planning” is coming up:\n\n\w+day, /);
    assert.match(mail?.text ?? "", /\(UTC\)/, "the time, its zone named");
    assert.match(mail?.text ?? "", new RegExp(`${g}/events/1:${id}`));
    await runMailer(server);
    assert.deepEqual(await outbox.fresh(), [], "once");
  });

  it("mails a Japanese reader in Japanese, with the time in the reader's own zone", async () => {
    await server.store.transaction((tx) => tx.users.update(carol.id, { lang: "ja", timeZone: "Asia/Tokyo" }));
    await setMail(server, carol.id, { mode: "digest" });
    const carolWeb = new WebClient(server.url, "ja");
    await carolWeb.signIn(carol.email);
    const start = Math.floor((server.clock.now() + 3 * HOUR) / MINUTE) * MINUTE;
    const id = await event("月次レビュー", 3 * HOUR);
    assert.equal((await remind(carolWeb, id, "10")).status, 303);
    server.clock.advance(2 * HOUR + 51 * MINUTE);
    assert.equal((await runMailer(server)).reminders, 1);
    const [mail, ...rest] = await outbox.fresh();
    assert.equal(rest.length, 0);
    assert.equal(mail?.to, carol.email);
    const tokyo = new Intl.DateTimeFormat("ja-JP", { dateStyle: "full", timeStyle: "short", timeZone: "Asia/Tokyo" });
    assert.match(mail?.text ?? "", /^リマインダー：予定「月次レビュー」が近づいています：\n\n/);
    assert.ok(mail?.text.includes(`${tokyo.format(start)} (Asia/Tokyo)`), mail?.text);
  });

  it("moves a weekly event's reminder to the next week, and places it again when the event moves", async () => {
    const id = await event("Weekly review", 2 * HOUR, true);
    assert.equal((await remind(aliceWeb, id, "10")).status, 303);
    const first = await server.store.read((tx) => tx.eventReminders.find(id, alice.id));
    server.clock.advance(2 * HOUR - 5 * MINUTE);
    assert.equal((await runMailer(server)).reminders, 1);
    await outbox.fresh();
    const second = await server.store.read((tx) => tx.eventReminders.find(id, alice.id));
    assert.equal(second?.nextAt, (first?.nextAt ?? 0) + 7 * DAY);
    // The series moves an hour later: this week's occurrence, an hour away now, is reminded of again.
    const moved = await server.store.read((tx) => tx.events.findById(id));
    assert.ok(moved);
    await server.store.transaction((tx) =>
      replaceEventFields(
        tx,
        moved,
        { ...moved, memo: "", start: moved.start + HOUR, end: moved.end + HOUR, participantIds: [], facilityIds: [] },
        { writerId: alice.id, at: server.clock.now() },
      ),
    );
    const third = await server.store.read((tx) => tx.eventReminders.find(id, alice.id));
    assert.equal(third?.nextAt, (first?.nextAt ?? 0) + HOUR);
  });

  it("sends nothing to someone who left the group, and forgets reminders of deleted events", async () => {
    const carolWeb = new WebClient(server.url);
    await carolWeb.signIn(carol.email);
    const id = await event("Offsite", 2 * HOUR);
    assert.equal((await remind(carolWeb, id, "60")).status, 303);
    await removeMember(server, { groupId: group.id, memberId: carol.id });
    server.clock.advance(HOUR + MINUTE);
    await runMailer(server);
    assert.deepEqual(
      (await outbox.fresh()).filter((mail) => mail.to === carol.email),
      [],
    );
    await server.store.transaction((tx) => tx.events.remove(id));
    assert.equal(await server.store.read((tx) => tx.eventReminders.find(id, carol.id)), undefined);
  });
});

// The pure rules, once.
it("reads the reminder choices and finds the next reminder of a series", () => {
  assert.equal(parseReminderMinutes(""), 0);
  assert.equal(parseReminderMinutes("1440"), 1440);
  assert.throws(() => parseReminderMinutes("30"), { code: "REMINDER_INVALID" });
  const base = {
    id: 1,
    creatorId: 1,
    creatorName: "A",
    title: "t",
    memo: "",
    start: Date.UTC(2026, 0, 5, 9),
    end: Date.UTC(2026, 0, 5, 10),
    allDay: false,
    timeZone: "UTC",
    rule: "FREQ=DAILY;COUNT=2",
    exceptions: [],
    createdAt: 0,
    updatedAt: 0,
  };
  assert.equal(nextReminderAt(base, 60, Date.UTC(2026, 0, 1)), Date.UTC(2026, 0, 5, 8));
  assert.equal(nextReminderAt(base, 60, Date.UTC(2026, 0, 5, 8)), Date.UTC(2026, 0, 6, 8));
  assert.equal(nextReminderAt(base, 60, Date.UTC(2026, 0, 6, 8)), null, "no occurrence left");
});
