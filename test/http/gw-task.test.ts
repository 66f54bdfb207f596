import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { addComment } from "../../src/services/comment/comment.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

const NOW = "2026-04-01T09:00:00Z";

describeEachBackend("GET /api/gwTask/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let folderId: number;
  let tasks: (query: string, token?: string) => ReturnType<typeof request>;
  const titles = async (query: string) => entriesOf((await tasks(query)).xml).map((e) => atomText(e, "title"));

  before(async () => {
    server = await startTestServer(backend);
    assert.equal(server.clock.now(), Date.parse(NOW));
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki" });
    bob = await f.user({ name: "Bob & <Baba>" });
    outsider = await f.user();
    group = await f.group([alice, bob], { name: "Dev" });
    folderId = await f.folder(group, "TASK", "Sprint");
    const at = (text: string) => Date.parse(text);
    await f.task(group, alice, { title: "no due" });
    server.clock.advance(1000);
    await f.task(group, alice, {
      title: "due today all day",
      dueAt: at("2026-04-01T00:00:00Z"),
      allDay: true,
      assigneeId: bob.id,
      priority: "S",
      status: "IN_PROGRESS",
      folderId,
    });
    server.clock.advance(1000);
    await f.task(group, bob, {
      title: "due in a week",
      dueAt: at("2026-04-08T12:30:00Z"),
      priority: "A",
      status: "ON_HOLD",
      body: "x & <y>",
    });
    server.clock.advance(1000);
    await f.task(group, bob, { title: "done", dueAt: at("2026-04-02T00:00:00Z"), status: "COMPLETED", priority: "C" });
    server.clock.advance(1000);
    await f.task(group, bob, { title: "due in 2 months", dueAt: at("2026-06-02T00:00:00Z") });
    server.clock.advance(1000);
    await f.task(group, bob, { title: "trashed", trashed: true, dueAt: at("2026-04-03T00:00:00Z") });
    tasks = (query, token = alice.token) => request(`${server.url}/api/gwTask/V2?${query}`, { token });
  });
  after(() => server.close());

  it("lists every task not in the trash when no term is given, newest first, with every field", async () => {
    const answer = await tasks(`group=1:${group.id}`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    assert.deepEqual(await titles(`group=1:${group.id}`), [
      "due in 2 months",
      "done",
      "due in a week",
      "due today all day",
      "no due",
    ]);
    const entries = entriesOf(answer.xml);
    const allDay = entries[3]!;
    assert.match(atomText(allDay, "id") ?? "", new RegExp(`^GROUP,1:${group.id},TASK,1:\\d+$`));
    const task = nsChild(allDay, "cbl", "task")!;
    assert.equal(attribute(task, "sequence"), "2");
    assert.equal(attribute(task, "valueString"), "対応中");
    assert.equal(attribute(nsChild(allDay, "cbl", "who")!, "id"), `1:${bob.id}`);
    assert.equal(attribute(nsChild(allDay, "cbl", "who")!, "valueString"), "Bob & <Baba>");
    assert.equal(attribute(nsChild(allDay, "cbl", "when")!, "endTime"), "2026-04-01");
    assert.equal(attribute(nsChild(allDay, "cbl", "when")!, "allday"), "true");
    assert.equal(attribute(nsChild(allDay, "cblTsk", "folder")!, "valueString"), "Sprint");
    assert.equal(nsChild(allDay, "cblTsk", "priority")?.text, "S");
    assert.equal(
      nsChild(allDay, "cbl", "confirmed")?.text,
      "true",
      "no unconfirmed notification of it (notification.test.ts covers the rest)",
    );
    const timed = entries[2]!;
    assert.equal(attribute(nsChild(timed, "cbl", "when")!, "endTime"), "2026-04-08T12:30:00Z");
    assert.equal(attribute(nsChild(timed, "cbl", "when")!, "allday"), undefined);
    assert.equal(atomText(timed, "summary"), "x & <y>");
    assert.equal(attribute(nsChild(timed, "cbl", "task")!, "valueString"), "保留");
    assert.equal(nsChild(entries[4]!, "cbl", "who"), undefined, "no assignee, no cbl:who");
    assert.equal(nsChild(entries[4]!, "cbl", "when"), undefined, "no due date, no cbl:when");
  });

  it("writes the literal prefixes, attribute order and element order clients match", async () => {
    const { text } = await tasks(`group=1:${group.id}`);
    assert.match(text, /<cbl:task sequence="2" valueString="対応中"\/>/);
    assert.match(text, /<cbl:when endTime="2026-04-01" allday="true"\/>/);
    assert.match(text, /<cbl:who valueString="Bob &amp; &lt;Baba&gt;" id="1:\d+"\/>/);
    assert.match(text, /<cblTsk:priority>S<\/cblTsk:priority>/);
    assert.match(text, /<cblTsk:folder valueString="Sprint" id="1:\d+"\/>/);
    assert.match(text, /<cbl:confirmed>true<\/cbl:confirmed>/);
    const start = text.indexOf("<entry>", text.indexOf("due today all day") - 200);
    const entry = text.slice(start, text.indexOf("</entry>", start));
    const order = [
      "<id>",
      "<title",
      'rel="alternate"',
      'rel="mobile"',
      '<category term="GROUP"',
      '<category term="TASK"',
      "<author>",
      "<updated>",
      "<summary",
      "<cbl:task ",
      "<cbl:group ",
      "<cbl:who ",
      "<cbl:when ",
      "<cblTsk:folder ",
      "<cblTsk:priority>",
      "<cbl:confirmed>",
    ];
    const positions = order.map((needle) => entry.indexOf(needle));
    assert.ok(
      positions.every((p) => p >= 0),
      `all present: ${JSON.stringify(positions)}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      "in the documented order",
    );
  });

  it("filters by term: due dates in [term-start, term-end]; an all-day task counts for its whole day", async () => {
    const g = `group=1:${group.id}`;
    assert.deepEqual(await titles(`${g}&term-start=2026-04-01T09:00:00Z&term-end=2026-04-08T12:30:00Z`), [
      "done",
      "due in a week",
      "due today all day",
    ]);
    assert.deepEqual(await titles(`${g}&term-start=2026-04-08T12:30:01Z&term-end=2026-05-01T00:00:00Z`), []);
    // Only term-start: term-end is one month later (2026-06-01 < 2026-06-02).
    assert.deepEqual(await titles(`${g}&term-start=2026-04-02T00:00:00Z`), ["done", "due in a week"]);
    assert.deepEqual(
      await titles(`${g}&term-start=2026-04-02T00:00:01Z`),
      ["due in a week"],
      "all-day 04-02 ended before",
    );
    // Only term-end: term-start is the time of the request (09:00 on 04-01); the all-day task of 04-01 still counts.
    assert.deepEqual(await titles(`${g}&term-end=2026-04-02T00:00:00Z`), ["done", "due today all day"]);
    assert.deepEqual(
      await titles(`${g}&term-end=2026-06-02T00:00:00Z`),
      ["due in 2 months", "done", "due in a week", "due today all day"],
      "tasks without due date are left out once a term is given",
    );
  });

  it("checks each term rule at its boundary, naming the parameter", async () => {
    const g = `group=1:${group.id}`;
    const ok = async (query: string) => assert.equal((await tasks(`${g}&${query}`)).status, 200, query);
    await ok("term-start=2026-01-01T00:00:00Z&term-end=2027-01-01T00:00:00Z");
    assertError(
      await tasks(`${g}&term-start=2026-01-01T00:00:00Z&term-end=2027-01-01T00:00:01Z`),
      400,
      "TERM_TOO_LONG",
    );
    assertError(
      await tasks(`${g}&term-start=2026-01-01T00:00:00Z&term-end=2027-01-02T00:00:00Z`),
      400,
      "TERM_TOO_LONG",
    );
    await ok("term-start=1900-01-01T00:00:00Z&term-end=1900-02-01T00:00:00Z");
    assertError(
      await tasks(`${g}&term-start=1899-12-31T00:00:00Z&term-end=1900-01-02T00:00:00Z`),
      400,
      "TERM_START_OUT_OF_RANGE",
    );
    assertError(await tasks(`${g}&term-start=1899-12-31T23:59:59Z`), 400, "TERM_START_OUT_OF_RANGE");
    await ok("term-start=2100-12-01T00:00:00Z&term-end=2100-12-31T00:00:00Z");
    await ok("term-start=2100-12-31T00:00:00Z");
    assertError(
      await tasks(`${g}&term-start=2100-12-01T00:00:00Z&term-end=2101-01-01T00:00:00Z`),
      400,
      "TERM_END_OUT_OF_RANGE",
    );
    assertError(
      await tasks(`${g}&term-start=2026-04-01T00:00:00%2B09:00&term-end=2026-04-02T00:00:00Z`),
      400,
      "INVALID_TERM_START",
    );
    assertError(await tasks(`${g}&term-start=2026-04-01T00:00:00+09:00`), 400, "INVALID_TERM_START");
    assertError(await tasks(`${g}&term-end=2026-04-10T00:00:00-00:00`), 400, "INVALID_TERM_END");
    assertError(await tasks(`${g}&term-end=2026-04-10`), 400, "INVALID_TERM_END");
    assertError(await tasks(`${g}&term-end=2026-02-30T00:00:00Z`), 400, "INVALID_TERM_END");
    assertError(
      await tasks(`${g}&term-start=2026-04-10T00:00:00Z&term-end=2026-04-10T00:00:00Z`),
      400,
      "TERM_END_NOT_AFTER_START",
    );
    assertError(
      await tasks(`${g}&term-start=2026-04-10T00:00:00Z&term-end=2026-04-09T00:00:00Z`),
      400,
      "TERM_END_NOT_AFTER_START",
    );
    assertError(await tasks(`${g}&term-end=2026-03-01T00:00:00Z`), 400, "TERM_END_NOT_AFTER_START");
    const answer = await tasks(`${g}&term-start=${"9".repeat(100)}`);
    assert.match(answer.xml.text, /term-start/);
    assert.ok(answer.xml.text.length < 200, "the bad value is clipped");
  });

  it("filters by status=NOT_COMPLETED and task-folder (id, UNCLASSIFIED, TRASH)", async () => {
    const g = `group=1:${group.id}`;
    assert.deepEqual(await titles(`${g}&status=NOT_COMPLETED`), [
      "due in 2 months",
      "due in a week",
      "due today all day",
      "no due",
    ]);
    assertError(await tasks(`${g}&status=COMPLETED`), 400, "INVALID_STATUS");
    assert.deepEqual(await titles(`${g}&task-folder=1:${folderId}`), ["due today all day"]);
    assert.deepEqual(await titles(`${g}&task-folder=1%3A${folderId}`), ["due today all day"]);
    assert.deepEqual(await titles(`${g}&task-folder=UNCLASSIFIED`), [
      "due in 2 months",
      "done",
      "due in a week",
      "no due",
    ]);
    assert.deepEqual(await titles(`${g}&task-folder=TRASH`), ["trashed"]);
    assertError(await tasks(`${g}&task-folder=1:99999`), 404, "FOLDER_NOT_FOUND");
    const boardFolder = await server.factories.boardFolder(group);
    assertError(await tasks(`${g}&task-folder=1:${boardFolder}`), 404, "FOLDER_NOT_FOUND");
    assertError(await tasks(`${g}&task-folder=ATTACH`), 400, "INVALID_FOLDER");
  });

  it("returns one task by entry=, and refuses other kinds, bad ids and non-members", async () => {
    const list = entriesOf((await tasks(`group=1:${group.id}`)).xml);
    const id = atomText(list[0]!, "id")!;
    for (const form of [id, encodeURIComponent(id)]) {
      const one = await tasks(`entry=${form}&term-start=nonsense-is-ignored`);
      assert.equal(one.status, 200, one.text);
      await assertValidAtom(one.text);
      assert.deepEqual(
        entriesOf(one.xml).map((e) => atomText(e, "id")),
        [id],
      );
    }
    assertError(await tasks(`entry=GROUP,1:${group.id},TASK,1:99999`), 404, "TASK_NOT_FOUND");
    assertError(await tasks(`entry=GROUP,1:${group.id},BOARD,1:1`), 404, "TASK_NOT_FOUND");
    assertError(await tasks("entry=nonsense"), 400, "INVALID_ID");
    assertError(await tasks(`entry=${id}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await tasks(`group=1:${group.id}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await tasks("group=1:99999"), 404, "GROUP_NOT_FOUND");
    assertError(await tasks(""), 400, "PARAMETER_REQUIRED");
    assertError(
      await request(`${server.url}/api/gwTask/V2`, { method: "POST", token: alice.token, body: "<feed/>" }),
      405,
      "METHOD_NOT_ALLOWED",
    );
  });

  it("pages with start-index and max-results, and numbers tasks within their group", async () => {
    const big = await server.factories.group([alice]);
    for (let i = 0; i < 25; i++) {
      await server.factories.task(big, alice, { title: `t${i}` });
      server.clock.advance(1000);
    }
    assert.equal((await titles(`group=1:${big.id}`)).length, 20);
    assert.deepEqual(await titles(`group=1:${big.id}&start-index=3&max-results=2`), ["t21", "t20"]);
    assert.deepEqual(await titles(`group=1:${big.id}&start-index=25`), []);
    assertError(await tasks(`group=1:${big.id}&max-results=0`), 400, "INVALID_MAX_RESULTS");
    const { text } = await tasks(`group=1:${big.id}&max-results=1`);
    assert.match(text, /<cbl:task sequence="25" /, "sequence counts within the group, from 1");
  });

  it("embeds comments with embed-comment=true for the comments level, and accepts comments on tasks", async () => {
    const task = await server.factories.task(group, alice, { title: "discussed" });
    const id = `GROUP,1:${group.id},TASK,1:${task.id}`;
    const actor = { user: bob, app: { id: 0, name: "test", consumerKey: "k", accessLevel: "Z" as const } };
    await addComment(server, actor, {
      parent: { kind: "TASK", groupId: group.id, id: task.id },
      text: "hi & bye",
      replyTo: undefined,
    });
    await assert.rejects(
      addComment(server, actor, {
        parent: { kind: "TASK", groupId: group.id, id: 99999 },
        text: "x",
        replyTo: undefined,
      }),
      /task does not exist/,
    );
    const answer = await tasks(`entry=${id}&embed-comment=true`);
    assert.equal(answer.status, 200);
    await assertValidAtom(answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    const sub = nsChild(nsChild(nsChild(entry, "cbl", "comments")!, "cbl", "feedLink")!, "atom", "feed")!;
    const comments = entriesOf(sub);
    assert.equal(comments.length, 1);
    assert.equal(atomText(comments[0]!, "id"), `${id},COMMENT,1`);
    assert.equal(atomText(comments[0]!, "summary"), "hi & bye");
    // The same comment entry as the comment endpoint's: likes and favorites included.
    assert.equal(nsChild(comments[0]!, "cblGood", "count")?.text, "0");
    assert.equal(nsChild(comments[0]!, "cblStar", "set")?.text, "false");
    assert.equal(nsChild(entriesOf((await tasks(`entry=${id}`)).xml)[0]!, "cbl", "comments"), undefined);
    const reader = await server.factories.user({ level: "read" });
    const readGroup = await server.factories.group([reader]);
    assert.equal((await tasks(`group=1:${readGroup.id}`, reader.token)).status, 200);
    assertError(
      await tasks(`group=1:${readGroup.id}&embed-comment=true`, reader.token),
      403,
      "ACCESS_LEVEL_INSUFFICIENT",
    );
  });
});
