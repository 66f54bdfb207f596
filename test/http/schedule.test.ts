import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute, children } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { listScheduleOccurrences } from "../../src/services/schedule/schedule.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { describeEachBackend } from "../support/backends.js";
import { assertEveryWhen, postEvent, postPersonalEvent } from "../support/events.js";
import type { TestUser } from "../support/factories.js";
import { type Answer, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { sql } from "kysely";

const CBL = "http://schemas.cybozulive.com/common/2010";
const SCH = "http://schemas.cybozulive.com/schedule/2010";
const APRIL = "term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z";

describeEachBackend("GET and POST /api/schedule/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let reader: TestUser;
  let group: Group;
  const ids: Record<string, string> = {};
  const get = (query: string, token = alice.token) => request(`${server.url}/api/schedule/V2?${query}`, { token });
  const titles = (answer: Answer) => entriesOf(answer.xml).map((entry) => atomText(entry, "title"));
  const shape = (entry: NonNullable<ReturnType<typeof entriesOf>[number]>) =>
    entry.children.map((c) => `${c.local}${c.local === "category" ? `:${attribute(c, "term")}` : ""}`);
  const whens = (answer: Answer, index: number) =>
    children(nsChild(entriesOf(answer.xml)[index]!, "cblSch", "recurrence")!, CBL, "when").map((when) => [
      attribute(when, "startTime"),
      attribute(when, "endTime"),
    ]);
  const mine = async (title: string, start: string, end: string, extra = "", token = alice.token) => {
    const answer = await postPersonalEvent(server.url, token, { title, start, end, extra });
    assert.equal(answer.status, 200, answer.text);
    ids[title] = atomText(entriesOf(answer.xml)[0]!, "id")!;
    return answer;
  };
  const shared = async (title: string, start: string, end: string, extra = "", groupId = group.id) => {
    const answer = await postEvent(server.url, bob.token, { groupId, title, start, end, extra });
    assert.equal(answer.status, 200, answer.text);
    ids[title] = atomText(entriesOf(answer.xml)[0]!, "id")!;
  };
  const body = (id: string) => `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${id}</id></entry></feed>`;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    reader = await f.user({ name: "Reader", level: "read" });
    group = await f.group([alice, bob, reader], { name: "Dev", managers: [bob] });
    const bobsOwn = await f.group([bob], { name: "Bob only" });
    await mine("dentist", "2026-04-03T01:00:00Z", "2026-04-03T02:00:00Z");
    await mine("ends at window start", "2026-03-31T23:00:00Z", "2026-04-01T00:00:00Z");
    await shared("everyone's", "2026-04-02T00:00:00Z", "2026-04-02T01:00:00Z");
    await shared("names alice", "2026-04-04T00:00:00Z", "2026-04-04T01:00:00Z", `<cbl:who id="1:${alice.id}"/>`);
    await shared("names bob only", "2026-04-05T00:00:00Z", "2026-04-05T01:00:00Z", `<cbl:who id="1:${bob.id}"/>`);
    await shared("other group", "2026-04-06T00:00:00Z", "2026-04-06T01:00:00Z", "", bobsOwn.id);
    await postPersonalEvent(server.url, bob.token, {
      title: "bob's own",
      start: "2026-04-07T00:00:00Z",
      end: "2026-04-07T01:00:00Z",
    });
  });
  after(() => server.close());

  it("lists my personal events and the group events I take part in, ordered by start, totalCount first", async () => {
    const answer = await get(APRIL);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    assert.deepEqual(titles(answer), ["everyone's", "dentist", "names alice"]);
    assert.ok(answer.text.indexOf("<cbl:totalCount>3</cbl:totalCount>") < answer.text.indexOf("<entry>"));
    assert.equal(atomText(answer.xml, "title"), "Schedule");
    assert.equal(atomText(answer.xml, "id"), `${server.url}/api/schedule/V2`);
    const [everyone, dentist] = entriesOf(answer.xml);
    assert.equal(atomText(dentist!, "id"), ids.dentist);
    assert.match(ids.dentist!, new RegExp(`^MYPAGE,1:${alice.id},MP_SCHEDULE,1:\\d+$`));
    assert.deepEqual(shape(dentist!), [
      "id",
      "title",
      "link",
      "link",
      "category:MYPAGE",
      "category:MP_SCHEDULE",
      "author",
      "updated",
      "summary",
      "when",
      "published",
    ]);
    assert.equal(nsChild(dentist!, "cbl", "group"), undefined, "a personal event has no cbl:group");
    assert.equal(atomText(nsChild(dentist!, "atom", "author")!, "name"), "Alice");
    assert.equal(attribute(nsChild(everyone!, "cbl", "group")!, "id"), `1:${group.id}`);
    assert.equal(atomText(nsChild(everyone!, "atom", "author")!, "name"), "Bob");
    assertEveryWhen(answer.text);
  });

  it("keeps the group participant rule: an event naming others only is not in my schedule", async () => {
    const bobs = titles(await get(APRIL, bob.token));
    assert.deepEqual(bobs, ["everyone's", "names bob only", "other group", "bob's own"]);
    const alices = titles(await get(APRIL));
    assert.ok(!alices.includes("names bob only") && !alices.includes("other group") && !alices.includes("bob's own"));
  });

  it("keeps windows half-open, defaults to one month from now, and pages with totalCount", async () => {
    const window = (start: string, end: string) => get(`term-start=${start}&term-end=${end}`);
    assert.ok(!titles(await window("2026-04-01T00:00:00Z", "2026-04-03T00:00:00Z")).includes("ends at window start"));
    assert.ok(titles(await window("2026-03-31T23:59:59Z", "2026-04-03T00:00:00Z")).includes("ends at window start"));
    assert.ok(
      !titles(await window("2026-04-02T00:00:00Z", "2026-04-03T01:00:00Z")).includes("dentist"),
      "starts at end",
    );
    assert.ok(titles(await window("2026-04-03T01:59:59Z", "2026-04-04T00:00:00Z")).includes("dentist"));
    assert.deepEqual(titles(await get("")), ["everyone's", "dentist", "names alice"], "now .. one month later");
    const page = await get(`${APRIL}&start-index=1&max-results=1`);
    assert.deepEqual(titles(page), ["dentist"]);
    assert.match(page.text, /<cbl:totalCount>3<\/cbl:totalCount>/);
    const beyond = await get(`${APRIL}&start-index=5`);
    assert.deepEqual(titles(beyond), []);
    assert.match(beyond.text, /<cbl:totalCount>3<\/cbl:totalCount>/);
  });

  it("repeats personal events, with moved and cancelled occurrences", async () => {
    await mine(
      "yoga",
      "2026-04-06T17:00:00Z",
      "2026-04-06T18:00:00Z",
      "<cblSch:timeZone>Europe/Berlin</cblSch:timeZone><cblSch:rule>FREQ=WEEKLY;COUNT=4</cblSch:rule>",
    );
    const update = await postPersonalEvent(server.url, alice.token, {
      operation: "update",
      id: ids.yoga,
      title: "yoga",
      start: "2026-04-06T17:00:00Z",
      end: "2026-04-06T18:00:00Z",
      extra:
        "<cblSch:rule>FREQ=WEEKLY;COUNT=4</cblSch:rule><cblSch:recurrence>" +
        '<cbl:when startTime="2026-04-14T17:00:00Z" endTime="2026-04-14T18:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-13T17:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-20T17:00:00Z" cancelled="true"/></cblSch:recurrence>',
    });
    assert.equal(update.status, 200, update.text);
    assertEveryWhen(update.text);
    const list = await get("term-start=2026-04-08T00:00:00Z&term-end=2026-05-01T00:00:00Z");
    const index = titles(list).indexOf("yoga");
    assert.deepEqual(whens(list, index), [
      ["2026-04-14T17:00:00Z", "2026-04-14T18:00:00Z"],
      ["2026-04-27T17:00:00Z", "2026-04-27T18:00:00Z"],
    ]);
    const entry = entriesOf(list.xml)[index]!;
    assert.equal(attribute(nsChild(entry, "cbl", "when")!, "startTime"), "2026-04-14T17:00:00Z", "first in window");
    assert.deepEqual(
      children(nsChild(entry, "cblSch", "recurrence")!, SCH, "exception").map((e) => [
        attribute(e, "startTime"),
        attribute(e, "cancelled"),
      ]),
      [
        ["2026-04-13T17:00:00Z", undefined],
        ["2026-04-20T17:00:00Z", "true"],
      ],
    );
    assertEveryWhen(list.text);
    const outside = await get("term-start=2026-04-20T00:00:00Z&term-end=2026-04-21T00:00:00Z");
    assert.ok(!titles(outside).includes("yoga"), "the cancelled occurrence is not in the schedule");
  });

  it("writes all-day personal events from midnight to midnight of their zone, in UTC", async () => {
    const answer = await mine(
      "holiday",
      "2026-04-10",
      "2026-04-10",
      "<cblSch:allDay>true</cblSch:allDay><cblSch:timeZone>Asia/Tokyo</cblSch:timeZone>",
    );
    const entry = entriesOf(answer.xml)[0]!;
    const when = nsChild(entry, "cbl", "when")!;
    assert.deepEqual(
      [attribute(when, "startTime"), attribute(when, "endTime")],
      ["2026-04-09T15:00:00Z", "2026-04-10T15:00:00Z"],
    );
    assert.equal(nsChild(entry, "cblSch", "allDay")?.text, "true");
    assertEveryWhen(answer.text);
    const read = await get(`entry=${ids.holiday}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(titles(read), ["holiday"]);
    assert.match(read.text, /<cbl:totalCount>1<\/cbl:totalCount>/);
    assert.ok(titles(await get("term-start=2026-04-09T14:59:59Z&term-end=2026-04-09T15:00:01Z")).includes("holiday"));
    assert.ok(!titles(await get("term-start=2026-04-10T15:00:00Z&term-end=2026-04-11T00:00:00Z")).includes("holiday"));
  });

  it("refuses bad writes with the event error codes, at each limit's boundary, changing nothing", async () => {
    const base = { title: "t", start: "2026-04-05T00:00:00Z", end: "2026-04-05T01:00:00Z" };
    const post = (changes: object, token = alice.token) =>
      postPersonalEvent(server.url, token, { ...base, ...changes });
    const before = (await get("term-start=2026-04-05T00:00:00Z&term-end=2026-04-05T01:00:00Z")).text;
    assertError(await post({ title: "" }), 400, "EVENT_TITLE_MISSING");
    assertError(await post({ title: "a".repeat(201) }), 400, "EVENT_TITLE_TOO_LONG");
    assertError(await post({ summary: "m".repeat(20_001) }), 400, "EVENT_MEMO_TOO_LONG");
    assertError(await post({ end: base.start }), 400, "EVENT_TIME_INVALID");
    assertError(await post({ end: undefined }), 400, "EVENT_TIME_INVALID");
    assertError(await post({ end: "2027-04-06T00:00:01Z" }), 400, "EVENT_TIME_INVALID");
    assertError(await post({ extra: "<cblSch:rule>FREQ=HOURLY</cblSch:rule>" }), 400, "EVENT_RULE_INVALID");
    assertError(
      await post({ extra: "<cblSch:timeZone>Mars/Olympus</cblSch:timeZone>" }),
      400,
      "EVENT_TIME_ZONE_INVALID",
    );
    assertError(await post({ extra: `<cbl:who id="1:${bob.id}"/>` }), 400, "PERSONAL_EVENT_NOT_SHARED");
    assertError(await post({ extra: `<cbl:group id="1:${group.id}"/>` }), 400, "PERSONAL_EVENT_NOT_SHARED");
    assertError(await post({ extra: `<cbl:facility id="1:1"/>` }), 400, "PERSONAL_EVENT_NOT_SHARED");
    assertError(await post({ operation: "replace" }), 400, "INVALID_OPERATION");
    assertError(await post({}, reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assert.equal((await get("term-start=2026-04-05T00:00:00Z&term-end=2026-04-05T01:00:00Z")).text, before);
    for (const ok of [
      { title: "a".repeat(200) },
      { summary: "m".repeat(20_000) },
      { start: "2026-04-05T00:00:00Z", end: "2027-04-06T00:00:00Z" },
    ]) {
      const answer = await post(ok);
      assert.equal(answer.status, 200, answer.text);
      const id = atomText(entriesOf(answer.xml)[0]!, "id")!;
      assert.equal((await postPersonalEvent(server.url, alice.token, { operation: "delete", id })).status, 200);
    }
  });

  it("updates and deletes my personal events; an omitted memo empties it", async () => {
    await mine("to change", "2026-04-08T00:00:00Z", "2026-04-08T01:00:00Z");
    const changed = await postPersonalEvent(server.url, alice.token, {
      operation: "update",
      id: ids["to change"],
      title: "changed",
      summary: "memo",
      start: "2026-04-08T02:00:00Z",
      end: "2026-04-08T03:00:00Z",
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(atomText(entriesOf(changed.xml)[0]!, "summary"), "memo");
    const emptied = await postPersonalEvent(server.url, alice.token, {
      operation: "update",
      id: ids["to change"],
      title: "changed",
      start: "2026-04-08T02:00:00Z",
      end: "2026-04-08T03:00:00Z",
    });
    assert.equal(atomText(entriesOf(emptied.xml)[0]!, "summary"), "");
    const deleted = await postPersonalEvent(server.url, alice.token, { operation: "delete", id: ids["to change"] });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(atomText(entriesOf(deleted.xml)[0]!, "id"), ids["to change"]);
    assertError(await get(`entry=${ids["to change"]}`), 404, "NOT_FOUND");
    assertError(
      await postPersonalEvent(server.url, alice.token, { operation: "delete", id: ids["to change"] }),
      404,
      "NOT_FOUND",
    );
    assertError(
      await postPersonalEvent(server.url, alice.token, { operation: "delete", id: ids["everyone's"] }),
      404,
      "NOT_FOUND",
    );
    assertError(
      await postPersonalEvent(server.url, alice.token, { operation: "delete", id: "not an id" }),
      400,
      "INVALID_ID",
    );
  });

  it("keeps personal events private: another user never reads, changes, comments, likes or favorites one", async () => {
    const id = ids.dentist!;
    assertError(await get(`entry=${id}`, bob.token), 404, "NOT_FOUND");
    assertError(await get(`entry=${id.replace(`1:${alice.id}`, `1:${bob.id}`)}`, bob.token), 404, "NOT_FOUND");
    const write = (operation: string) =>
      postPersonalEvent(server.url, bob.token, {
        operation,
        id,
        title: "mine now",
        start: "2026-04-03T01:00:00Z",
        end: "2026-04-03T02:00:00Z",
      });
    assertError(await write("update"), 404, "NOT_FOUND");
    assertError(await write("delete"), 404, "NOT_FOUND");
    const comment = (token: string) =>
      request(`${server.url}/api/comment/V2`, {
        token,
        body: `<feed xmlns="http://www.w3.org/2005/Atom"><id>${id}</id><entry><summary type="text">hi</summary></entry></feed>`,
      });
    assertError(await comment(bob.token), 404, "NOT_FOUND");
    assertError(await comment(alice.token), 400, "PERSONAL_EVENT_NOT_SHARED");
    assertError(await request(`${server.url}/api/comment/V2?entry=${id}`, { token: bob.token }), 404, "NOT_FOUND");
    assertError(
      await request(`${server.url}/api/comment/V2?entry=${id}`, { token: alice.token }),
      400,
      "PERSONAL_EVENT_NOT_SHARED",
    );
    for (const endpoint of ["good", "star"]) {
      assertError(
        await request(`${server.url}/api/${endpoint}/V2`, { token: bob.token, body: body(id) }),
        404,
        "NOT_FOUND",
      );
      assertError(
        await request(`${server.url}/api/${endpoint}/V2`, { token: alice.token, body: body(id) }),
        400,
        "PERSONAL_EVENT_NOT_SHARED",
      );
    }
    assertError(await request(`${server.url}/api/good/V2?id=${id}`, { token: bob.token }), 404, "NOT_FOUND");
    const read = await get(`entry=${id}`);
    assert.equal(atomText(entriesOf(read.xml)[0]!, "title"), "dentist", "unchanged");
    for (const user of [alice, bob]) {
      const notifications = await request(`${server.url}/api/notification/V2`, { token: user.token });
      assert.doesNotMatch(notifications.text, /MP_SCHEDULE/, "no M_SCHEDULE notification, no personal event");
    }
  });

  it("reads one group event by id, embeds group events' comments, and takes every boolean spelling", async () => {
    const comment = await request(`${server.url}/api/comment/V2`, {
      token: bob.token,
      body: `<feed xmlns="http://www.w3.org/2005/Atom"><id>${ids["everyone's"]}</id><entry><summary type="text">agenda?</summary></entry></feed>`,
    });
    assert.equal(comment.status, 200, comment.text);
    const embedded = await get(`${APRIL}&embed-comment=True`);
    assert.match(embedded.text, /agenda\?/);
    const one = await get(`entry=${ids["names bob only"]}&embed-comment=true`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(titles(one), ["names bob only"], "a group event the caller may read");
    for (const flag of ["true", "True", "false", "False"]) {
      assert.equal((await get(`${APRIL}&embed-comment=${flag}`)).status, 200, flag);
      // The same feed but for its own address (the WebSub self link).
      assert.equal(
        withoutSelf((await get(`${APRIL}&ignore-aggregated=${flag}`)).text),
        withoutSelf((await get(APRIL)).text),
        flag,
      );
    }
    assertError(await get(`entry=${ids["other group"]}`), 403, "GROUP_NOT_JOINED");
    assertError(await get(`entry=GROUP,1:${group.id},BOARD,1:1`), 404, "NOT_FOUND");
    assertError(await get("entry=junk"), 400, "INVALID_ID");
    assertError(await get(`${APRIL}&embed-comment=true`, reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assert.equal((await get(APRIL, reader.token)).status, 200);
  });

  it("refuses bad windows and paging with TERM_INVALID and the paging codes", async () => {
    for (const query of [
      "term-start=2026-04-01",
      "term-start=2026-04-01T00:00:00%2B09:00",
      "term-start=2026-04-01T00:00:00Z&term-end=2026-04-01T00:00:00Z",
      "term-start=2026-01-01T00:00:00Z&term-end=2027-01-02T00:00:01Z",
      "term-start=1899-12-31T00:00:00Z",
      "term-end=2101-01-01T00:00:01Z",
    ])
      assertError(await get(query), 400, "TERM_INVALID");
    assert.equal((await get("term-start=2026-01-01T00:00:00Z&term-end=2027-01-02T00:00:00Z")).status, 200, "366 days");
    assert.equal((await get("term-start=1900-01-01T00:00:00Z")).status, 200);
    assert.equal((await get("term-end=2101-01-01T00:00:00Z")).status, 200, "the end of 2100-12-31");
    assert.equal((await get(`${APRIL}&max-results=0`)).status, 400);
    assert.equal((await get(`${APRIL}&start-index=-1`)).status, 400);
  });

  it("gives other code every occurrence of a user's schedule in a window (listScheduleOccurrences)", async () => {
    const window = { start: Date.parse("2026-04-01T00:00:00Z"), end: Date.parse("2026-05-01T00:00:00Z") };
    const items = await listScheduleOccurrences(server, alice.id, window);
    const listed = items.map((item) => `${item.kind}:${item.entry.event.title}`);
    const feed = await get(`${APRIL}&max-results=100`);
    assert.equal(listed.length, entriesOf(feed.xml).length, "the same events as the feed");
    assert.ok(listed.includes("personal:dentist") && listed.includes("group:everyone's"));
    assert.ok(!listed.includes("group:names bob only") && !listed.includes("personal:bob's own"));
    const yoga = items.find((item) => item.entry.event.title === "yoga")!;
    assert.equal(yoga.kind, "personal");
    assert.deepEqual(
      yoga.entry.occurrences.map((o) => new Date(o.start).toISOString()),
      ["2026-04-06T17:00:00.000Z", "2026-04-14T17:00:00.000Z", "2026-04-27T17:00:00.000Z"],
    );
    const group = items.find((item) => item.kind === "group");
    assert.equal(group?.kind === "group" ? group.group.name : undefined, "Dev");
    const starts = items.map((item) => item.entry.shown.start);
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
      "ordered by the first occurrence in the window",
    );
  });

  it("is kept by the feed cache, and every change of what it shows is a new answer, however it is written", async () => {
    const MAY = "term-start=2026-05-01T00:00:00Z&term-end=2026-06-01T00:00:00Z";
    const poll = async (tag?: string) => {
      const headers: Record<string, string> = tag === undefined ? {} : { "if-none-match": tag };
      return request(`${server.url}/api/schedule/V2?${MAY}`, { token: alice.token, headers });
    };
    const first = await poll();
    const tag = first.headers.get("etag");
    assert.ok(tag, "a window the clock does not move is tagged");
    assert.equal((await poll(tag)).status, 304, "unchanged: kept");
    await mine("may visit", "2026-05-10T01:00:00Z", "2026-05-10T02:00:00Z");
    const added = await poll(tag);
    assert.equal(added.status, 200, "a personal event written through the API");
    assert.deepEqual(titles(added), ["may visit"]);
    const addedTag = added.headers.get("etag")!;
    // An operator's SQL through a connection of its own: only the triggers can tell the cache.
    const config = server.storeConfig;
    const operator =
      config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    try {
      await sql`update personal_events set title = ${"renamed by SQL"} where title = ${"may visit"}`.execute(operator);
    } finally {
      await operator.destroy();
    }
    const renamed = await poll(addedTag);
    assert.equal(renamed.status, 200, "a personal event changed behind the server's back");
    assert.deepEqual(titles(renamed), ["renamed by SQL"]);
    await shared("may meeting", "2026-05-12T00:00:00Z", "2026-05-12T01:00:00Z");
    const grouped = await poll(renamed.headers.get("etag")!);
    assert.equal(grouped.status, 200, "a group event of the caller's group");
    assert.deepEqual(titles(grouped), ["renamed by SQL", "may meeting"]);
    assert.equal(
      (await request(`${server.url}/api/schedule/V2?${MAY}`, { token: bob.token, headers: { "if-none-match": tag } }))
        .status,
      200,
      "another caller's tag is not mine",
    );
  });
});

/** A feed without its `<link rel="self">`, which names the address it was read at. */
function withoutSelf(xml: string): string {
  return xml.replace(/<link rel="self"[^>]*\/>/, "");
}
