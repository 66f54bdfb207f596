import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute, children } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { describeEachBackend } from "../support/backends.js";
import { assertEveryWhen, postEvent } from "../support/events.js";
import type { TestUser } from "../support/factories.js";
import { type Answer, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET and POST /api/gwSchedule/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let group: Group;
  let menuId: number;
  const ids: Record<string, string> = {};
  const get = (query: string, token = alice.token) => request(`${server.url}/api/gwSchedule/V2?${query}`, { token });
  const titles = (answer: Answer) => entriesOf(answer.xml).map((entry) => atomText(entry, "title"));
  const whens = (answer: Answer, index = 0) =>
    children(
      nsChild(entriesOf(answer.xml)[index]!, "cblSch", "recurrence")!,
      "http://schemas.cybozulive.com/common/2010",
      "when",
    ).map((when) => [attribute(when, "startTime"), attribute(when, "endTime")]);
  const add = async (title: string, start: string, end: string, extra = "", token = alice.token) => {
    const answer = await postEvent(server.url, token, { groupId: group.id, title, start, end, extra });
    assert.equal(answer.status, 200, answer.text);
    ids[title] = atomText(entriesOf(answer.xml)[0]!, "id")!;
    return answer;
  };

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    outsider = await f.user();
    group = await f.group([alice, bob, carol], { name: "Dev", managers: [alice] });
    await f.group([outsider]);
    menuId = (await server.store.transaction((tx) => tx.events.insertNamed("event_menus", group.id, "会議", 0))).id;
    const room = await server.store.transaction((tx) => tx.events.insertNamed("facilities", group.id, "Room A", 0));
    await add(
      "standup",
      "2026-04-02T00:00:00Z",
      "2026-04-02T00:15:00Z",
      `<cblSch:menu id="1:${menuId}"/><cbl:who id="1:${bob.id}"/><cbl:facility id="1:${room.id}"/>`,
    );
    await add("ends at window start", "2026-03-31T23:00:00Z", "2026-04-01T00:00:00Z");
    await add(
      "holiday",
      "2026-04-10",
      "2026-04-10",
      "<cblSch:allDay>true</cblSch:allDay><cblSch:timeZone>Asia/Tokyo</cblSch:timeZone>",
    );
    await add(
      "weekly",
      "2026-03-19T08:00:00Z",
      "2026-03-19T09:00:00Z",
      "<cblSch:timeZone>Europe/Berlin</cblSch:timeZone><cblSch:rule>RRULE:FREQ=WEEKLY;COUNT=5</cblSch:rule>",
    );
  });
  after(() => server.close());

  it("writes every entry child in order, cbl:totalCount before the entries, and valid Atom", async () => {
    const answer = await get(`group=1:${group.id}&term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z`);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    assert.deepEqual(titles(answer), ["standup", "weekly", "holiday"]);
    assert.ok(answer.text.indexOf("<cbl:totalCount>3</cbl:totalCount>") < answer.text.indexOf("<entry>"));
    const standup = entriesOf(answer.xml)[0]!;
    assert.deepEqual(
      standup.children.map((c) => `${c.local}${c.local === "category" ? `:${attribute(c, "term")}` : ""}`),
      [
        "id",
        "title",
        "link",
        "link",
        "category:GROUP",
        "category:GW_SCHEDULE",
        "author",
        "updated",
        "summary",
        "group",
        "when",
        "menu",
        "who",
        "facility",
        "published",
      ],
    );
    assert.equal(attribute(nsChild(standup, "cblSch", "menu")!, "valueString"), "会議");
    assert.equal(attribute(nsChild(standup, "cbl", "who")!, "id"), `1:${bob.id}`);
    assert.equal(atomText(standup, "summary"), "", "the memo is written even when empty");
    assert.ok(assertEveryWhen(answer.text) >= 5);
  });

  it("keeps intervals half-open and answers a window's boundaries", async () => {
    const window = (start: string, end: string) => get(`group=1:${group.id}&term-start=${start}&term-end=${end}`);
    assert.ok(!titles(await window("2026-04-01T00:00:00Z", "2026-04-03T00:00:00Z")).includes("ends at window start"));
    assert.ok(titles(await window("2026-03-31T23:59:59Z", "2026-04-03T00:00:00Z")).includes("ends at window start"));
    assert.ok(
      !titles(await window("2026-04-01T01:00:00Z", "2026-04-02T00:00:00Z")).includes("standup"),
      "starts at the end",
    );
    const defaults = await get(`group=1:${group.id}`);
    assert.deepEqual(titles(defaults), ["standup", "weekly", "holiday"], "now .. one month later");
  });

  it("writes all-day events from midnight to midnight of their zone, in UTC", async () => {
    const answer = await get(`entry=${ids.holiday}`);
    const entry = entriesOf(answer.xml)[0]!;
    const when = nsChild(entry, "cbl", "when")!;
    assert.deepEqual(
      [attribute(when, "startTime"), attribute(when, "endTime")],
      ["2026-04-09T15:00:00Z", "2026-04-10T15:00:00Z"],
    );
    assert.equal(nsChild(entry, "cblSch", "allDay")?.text, "true");
    const berlin = await add(
      "long weekend",
      "2026-03-28",
      "2026-03-31",
      "<cblSch:allDay>true</cblSch:allDay><cblSch:timeZone>Europe/Berlin</cblSch:timeZone>",
    );
    const across = nsChild(entriesOf(berlin.xml)[0]!, "cbl", "when")!;
    assert.deepEqual(
      [attribute(across, "startTime"), attribute(across, "endTime")],
      ["2026-03-27T23:00:00Z", "2026-03-30T22:00:00Z"],
    );
    assertEveryWhen(berlin.text);
  });

  it("lists a repeating event once, with its occurrences in the window at the same wall-clock time", async () => {
    const answer = await get(`group=1:${group.id}&term-start=2026-03-20T00:00:00Z&term-end=2026-04-30T00:00:00Z`);
    const index = titles(answer).indexOf("weekly");
    const entry = entriesOf(answer.xml)[index]!;
    assert.equal(nsChild(nsChild(entry, "cblSch", "recurrence")!, "cblSch", "rule")?.text, "FREQ=WEEKLY;COUNT=5");
    assert.deepEqual(whens(answer, index), [
      ["2026-03-26T08:00:00Z", "2026-03-26T09:00:00Z"],
      ["2026-04-02T07:00:00Z", "2026-04-02T08:00:00Z"],
      ["2026-04-09T07:00:00Z", "2026-04-09T08:00:00Z"],
      ["2026-04-16T07:00:00Z", "2026-04-16T08:00:00Z"],
    ]);
    const shown = nsChild(entry, "cbl", "when")!;
    assert.equal(attribute(shown, "startTime"), "2026-03-26T08:00:00Z", "the first occurrence inside the window");
    assertEveryWhen(answer.text);
  });

  it("moves and cancels occurrences through exceptions", async () => {
    const answer = await postEvent(server.url, alice.token, {
      operation: "update",
      id: ids.weekly,
      title: "weekly",
      start: "2026-03-19T08:00:00Z",
      end: "2026-03-19T09:00:00Z",
      extra:
        "<cblSch:rule>FREQ=WEEKLY;COUNT=5</cblSch:rule><cblSch:recurrence>" +
        '<cbl:when startTime="2026-04-03T12:00:00Z" endTime="2026-04-03T13:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-02T07:00:00Z"/>' +
        '<cblSch:exception startTime="2026-04-09T07:00:00Z" cancelled="true"/></cblSch:recurrence>',
    });
    assert.equal(answer.status, 200, answer.text);
    const list = await get(`group=1:${group.id}&term-start=2026-03-30T00:00:00Z&term-end=2026-04-30T00:00:00Z`);
    const index = titles(list).indexOf("weekly");
    assert.deepEqual(whens(list, index), [
      ["2026-04-03T12:00:00Z", "2026-04-03T13:00:00Z"],
      ["2026-04-16T07:00:00Z", "2026-04-16T08:00:00Z"],
    ]);
    const recurrence = nsChild(entriesOf(list.xml)[index]!, "cblSch", "recurrence")!;
    assert.deepEqual(
      children(recurrence, "http://schemas.cybozulive.com/schedule/2010", "exception").map((e) => [
        attribute(e, "startTime"),
        attribute(e, "cancelled"),
      ]),
      [
        ["2026-04-02T07:00:00Z", undefined],
        ["2026-04-09T07:00:00Z", "true"],
      ],
    );
    assertError(
      await postEvent(server.url, alice.token, {
        operation: "update",
        id: ids.weekly,
        title: "weekly",
        start: "2026-03-19T08:00:00Z",
        end: "2026-03-19T09:00:00Z",
        extra:
          '<cblSch:rule>FREQ=WEEKLY</cblSch:rule><cblSch:recurrence><cblSch:exception startTime="2026-04-02T08:00:00Z" cancelled="true"/></cblSch:recurrence>',
      }),
      400,
      "EVENT_RULE_INVALID",
    );
  });

  it("pages with cbl:totalCount over all pages, and filters by menu", async () => {
    const query = `group=1:${group.id}&term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z`;
    const all = titles(await get(query));
    const second = await get(`${query}&start-index=1&max-results=1`);
    assert.deepEqual(titles(second), [all[1]]);
    assert.match(second.text, new RegExp(`<cbl:totalCount>${all.length}</cbl:totalCount>`));
    assert.deepEqual(titles(await get(`${query}&event-folder=1:${menuId}`)), ["standup"]);
    assert.ok(!titles(await get(`${query}&event-folder=UNCLASSIFIED`)).includes("standup"));
    const menus = await request(`${server.url}/api/gwScheduleFolder/V2?group=1:${group.id}`, { token: bob.token });
    assert.equal(menus.status, 200, menus.text);
    await assertValidAtom(menus.text);
    assert.deepEqual(
      entriesOf(menus.xml).map((e) => [atomText(e, "id"), atomText(e, "title")]),
      [[`GROUP,1:${group.id},GW_SCHEDULE_FOLDER,1:${menuId}`, "会議"]],
    );
  });

  it("refuses bad writes with the event error codes", async () => {
    const base = { groupId: group.id, title: "t", start: "2026-04-05T00:00:00Z", end: "2026-04-05T01:00:00Z" };
    const post = (changes: object, token = alice.token) => postEvent(server.url, token, { ...base, ...changes });
    assertError(await post({ title: "" }), 400, "EVENT_TITLE_MISSING");
    assert.equal((await post({ title: "a".repeat(200) })).status, 200);
    assertError(await post({ title: "a".repeat(201) }), 400, "EVENT_TITLE_TOO_LONG");
    assert.equal((await post({ summary: "m".repeat(20_000) })).status, 200);
    assertError(await post({ summary: "m".repeat(20_001) }), 400, "EVENT_MEMO_TOO_LONG");
    assertError(await post({ end: base.start }), 400, "EVENT_TIME_INVALID");
    assertError(await post({ end: undefined }), 400, "EVENT_TIME_INVALID");
    assertError(await post({ end: "2027-04-06T00:00:01Z" }), 400, "EVENT_TIME_INVALID");
    assert.equal((await post({ end: "2027-04-06T00:00:00Z", start: "2026-04-05T00:00:00Z" })).status, 200, "366 days");
    assertError(await post({ extra: "<cblSch:rule>FREQ=HOURLY</cblSch:rule>" }), 400, "EVENT_RULE_INVALID");
    assertError(await post({ extra: `<cbl:who id="1:${outsider.id}"/>` }), 403, "NOT_A_MEMBER");
    assertError(await post({}, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await post({ extra: `<cblSch:menu id="1:999999"/>` }), 404, "NOT_FOUND");
    assertError(
      await postEvent(server.url, alice.token, { operation: "delete", id: `GROUP,1:${group.id},GW_SCHEDULE,1:999999` }),
      404,
      "NOT_FOUND",
    );
  });

  it("lets the creator, the participants and the managers edit; nobody else", async () => {
    const created = await add(
      "carol's",
      "2026-04-06T00:00:00Z",
      "2026-04-06T01:00:00Z",
      `<cbl:who id="1:${bob.id}"/>`,
      carol.token,
    );
    assert.equal(created.status, 200);
    const update = (token: string) =>
      postEvent(server.url, token, {
        operation: "update",
        id: ids["carol's"],
        title: "changed",
        start: "2026-04-06T00:00:00Z",
        end: "2026-04-06T02:00:00Z",
      });
    assert.equal((await update(bob.token)).status, 200, "a participant");
    assert.equal((await update(alice.token)).status, 200, "a manager");
    const solo = await add("alice's", "2026-04-07T00:00:00Z", "2026-04-07T01:00:00Z");
    assert.equal(solo.status, 200);
    assertError(
      await postEvent(server.url, carol.token, {
        operation: "update",
        id: ids["alice's"],
        title: "x",
        start: "2026-04-07T00:00:00Z",
        end: "2026-04-07T01:00:00Z",
      }),
      403,
      "EVENT_EDIT_FORBIDDEN",
    );
    assertError(
      await postEvent(server.url, carol.token, { operation: "delete", id: ids["alice's"] }),
      403,
      "EVENT_EDIT_FORBIDDEN",
    );
    const deleted = await postEvent(server.url, alice.token, { operation: "delete", id: ids["alice's"] });
    assert.equal(deleted.status, 200, deleted.text);
    assertError(await get(`entry=${ids["alice's"]}`), 404, "NOT_FOUND");
  });

  it("refuses bad windows with TERM_INVALID and accepts every spelling of booleans", async () => {
    const group1 = `group=1:${group.id}`;
    for (const query of [
      "term-start=2026-04-01",
      "term-start=2026-04-01T00:00:00%2B09:00",
      "term-start=2026-04-01T00:00:00Z&term-end=2026-04-01T00:00:00Z",
      "term-start=2026-01-01T00:00:00Z&term-end=2027-01-02T00:00:01Z",
      "term-start=1899-12-31T00:00:00Z",
    ])
      assertError(await get(`${group1}&${query}`), 400, "TERM_INVALID");
    assert.equal((await get(`${group1}&term-start=2026-01-01T00:00:00Z&term-end=2027-01-02T00:00:00Z`)).status, 200);
    for (const flag of ["true", "True", "false", "False"])
      assert.equal((await get(`${group1}&embed-comment=${flag}`)).status, 200, flag);
    assertError(await get(`${group1}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await get(`entry=${ids.standup}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await get("term-start=2026-04-01T00:00:00Z"), 400, "PARAMETER_REQUIRED");
  });

  it("takes comments, likes and favorites on events, and notifies participants with G_SCHEDULE", async () => {
    const comment = await request(`${server.url}/api/comment/V2`, {
      token: alice.token,
      body: `<feed xmlns="http://www.w3.org/2005/Atom"><id>${ids.standup}</id><entry><summary type="text">agenda?</summary></entry></feed>`,
    });
    assert.equal(comment.status, 200, comment.text);
    const embedded = await get(`entry=${ids.standup}&embed-comment=True`);
    assert.match(embedded.text, /agenda\?/);
    const like = await request(`${server.url}/api/good/V2`, {
      token: bob.token,
      body: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${ids.standup}</id></entry></feed>`,
    });
    assert.equal(like.status, 200, like.text);
    const star = await request(`${server.url}/api/star/V2`, {
      token: bob.token,
      body: `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>${ids.standup}</id></entry></feed>`,
    });
    assert.equal(star.status, 200, star.text);
    const notified = async (user: TestUser) =>
      entriesOf(
        (await request(`${server.url}/api/notification/V2?category=G_SCHEDULE`, { token: user.token })).xml,
      ).map((e) => atomText(e, "id"));
    assert.ok((await notified(bob)).includes(ids.standup), "the participant");
    assert.ok(!(await notified(carol)).includes(ids.standup), "not a participant");
    assert.ok(!(await notified(alice)).includes(ids.standup), "not the actor");
    assert.ok(
      (await notified(bob)).includes(ids.holiday) && (await notified(carol)).includes(ids.holiday),
      "no participants: everyone",
    );
  });
});
