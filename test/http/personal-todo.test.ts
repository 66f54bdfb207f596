import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { attribute } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { describeEachBackend } from "../support/backends.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

const NOW = "2026-04-01T09:00:00Z";
const ATOM = 'xmlns="http://www.w3.org/2005/Atom"';
const NAMESPACES = `${ATOM} xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblTsk="http://schemas.cybozulive.com/task/2010"`;

/** A personal task write: `fields` go inside the entry. */
function taskBody(operation: string, fields: string): string {
  return `<feed ${NAMESPACES}><cbl:operation type="${operation}"/><entry>${fields}</entry></feed>`;
}

describeEachBackend("GET and POST /api/task/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let dev: Group;
  let ops: Group;
  let left: Group;
  const todo = (query: string, token = alice.token) => request(`${server.url}/api/task/V2?${query}`, { token });
  const write = (body: string, token = alice.token) => request(`${server.url}/api/task/V2`, { token, body });
  const titles = async (query: string, token = alice.token) =>
    entriesOf((await todo(query, token)).xml).map((e) => atomText(e, "title"));
  const insert = async (fields: string, token = alice.token) => {
    const answer = await write(taskBody("insert", fields), token);
    assert.equal(answer.status, 200, answer.text);
    return atomText(entriesOf(answer.xml)[0]!, "id")!;
  };

  before(async () => {
    server = await startTestServer(backend);
    assert.equal(server.clock.now(), Date.parse(NOW));
    const f = server.factories;
    alice = await f.user({ name: "Alice Aoki" });
    bob = await f.user({ name: "Bob" });
    dev = await f.group([alice, bob], { name: "Dev" });
    ops = await f.group([alice, bob], { name: "Ops" });
    left = await f.group([bob], { name: "Left" });
    const at = (text: string) => Date.parse(text);
    await f.task(dev, bob, {
      title: "dev: review",
      assigneeId: alice.id,
      dueAt: at("2026-04-01T00:00:00Z"),
      allDay: true,
    });
    server.clock.advance(1000);
    await f.task(dev, bob, { title: "dev: bob's own", assigneeId: bob.id });
    server.clock.advance(1000);
    await f.task(ops, bob, { title: "ops: deploy", assigneeId: alice.id, status: "COMPLETED" });
    server.clock.advance(1000);
    await f.task(ops, bob, { title: "ops: trashed", assigneeId: alice.id, trashed: true });
    server.clock.advance(1000);
    // Assigned to alice in a group she is not in (she left): not hers to see.
    await f.task(left, bob, { title: "left: stale", assigneeId: alice.id });
    server.clock.advance(1000);
  });
  after(() => server.close());

  it("writes personal tasks and lists them with the assigned group tasks, newest first", async () => {
    const id = await insert(
      `<title>Buy milk</title><summary type="text">2 &amp; 3</summary><cbl:when endTime="2026-04-20T10:00:00Z"/><cblTsk:priority>A</cblTsk:priority>`,
    );
    assert.match(id, new RegExp(`^MYPAGE,1:${alice.id},TASK,1:\\d+$`));
    const answer = await todo("");
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    assert.equal(atomText(answer.xml, "title"), "ToDo");
    assert.equal(nsChild(answer.xml, "cbl", "totalCount")?.text, "3");
    const entries = entriesOf(answer.xml);
    assert.deepEqual(
      entries.map((e) => atomText(e, "title")),
      ["Buy milk", "ops: deploy", "dev: review"],
    );
    const own = entries[0]!;
    assert.deepEqual(
      entries[0]!.children.filter((c) => c.local === "category").map((c) => attribute(c, "term")),
      ["MYPAGE", "TASK"],
    );
    assert.equal(nsChild(own, "cbl", "group"), undefined, "a personal task has no cbl:group");
    assert.equal(atomText(own, "summary"), "2 & 3");
    assert.equal(attribute(nsChild(own, "cbl", "task")!, "sequence"), "1");
    assert.equal(attribute(nsChild(own, "cbl", "task")!, "valueString"), "未着手");
    assert.equal(attribute(nsChild(own, "cbl", "when")!, "endTime"), "2026-04-20T10:00:00Z");
    assert.equal(nsChild(own, "cblTsk", "priority")?.text, "A");
    assert.equal(nsChild(own, "cbl", "confirmed")?.text, "true");
    const review = entries[2]!;
    assert.equal(attribute(nsChild(review, "cbl", "group")!, "id"), `1:${dev.id}`);
    assert.equal(attribute(nsChild(review, "cbl", "who")!, "id"), `1:${alice.id}`);
    assert.match(atomText(review, "id") ?? "", new RegExp(`^GROUP,1:${dev.id},TASK,1:\\d+$`));
    // Nobody else sees alice's personal task; bob sees his own assignment only.
    assert.deepEqual(await titles("", bob.token), ["dev: bob's own"]);
  });

  it("filters by group (members only, no personal tasks), by status and by due-date term", async () => {
    assert.deepEqual(await titles(`group=1:${dev.id}`), ["dev: review"]);
    assert.deepEqual(await titles(`group=GROUP,1:${ops.id}`), ["ops: deploy"]);
    assertError(await todo(`group=1:${left.id}`), 403, "GROUP_NOT_JOINED");
    assertError(await todo(`group=1:999999`), 404, "GROUP_NOT_FOUND");
    assertError(await todo(`group=junk`), 400, "INVALID_GROUP");
    assert.deepEqual(await titles("status=NOT_COMPLETED"), ["Buy milk", "dev: review"]);
    assertError(await todo("status=DONE"), 400, "INVALID_STATUS");
    // An all-day task due today is in a term that starts now; the milk is due later.
    assert.deepEqual(await titles("term-start=2026-04-01T09:00:00Z&term-end=2026-04-02T00:00:00Z"), ["dev: review"]);
    assert.deepEqual(await titles("term-start=2026-04-02T00:00:00Z"), ["Buy milk"]);
    assert.deepEqual(await titles("term-end=2026-04-30T00:00:00Z"), ["Buy milk", "dev: review"]);
    const year = 365 * 24 * 3600 * 1000;
    const end = new Date(Date.parse("2026-01-01T00:00:00Z") + year).toISOString().replace(".000", "");
    assert.equal((await todo(`term-start=2026-01-01T00:00:00Z&term-end=${end}`)).status, 200, "365 days: allowed");
    const over = new Date(Date.parse(end) + 1000).toISOString().replace(".000", "");
    assertError(await todo(`term-start=2026-01-01T00:00:00Z&term-end=${over}`), 400, "TERM_TOO_LONG");
    assertError(
      await todo("term-start=2026-04-02T00:00:00Z&term-end=2026-04-02T00:00:00Z"),
      400,
      "TERM_END_NOT_AFTER_START",
    );
    assertError(await todo("term-start=2026-04-02"), 400, "INVALID_TERM_START");
    assertError(
      await todo("term-start=1899-12-31T23:59:59Z&term-end=1900-01-02T00:00:00Z"),
      400,
      "TERM_START_OUT_OF_RANGE",
    );
  });

  it("pages like every list, with totalCount over all pages", async () => {
    for (let i = 0; i < 3; i++) {
      server.clock.advance(1000);
      await insert(`<title>page ${i}</title>`);
    }
    const first = await todo("max-results=2");
    assert.equal(nsChild(first.xml, "cbl", "totalCount")?.text, "6");
    assert.deepEqual(
      entriesOf(first.xml).map((e) => atomText(e, "title")),
      ["page 2", "page 1"],
    );
    assert.deepEqual(await titles("start-index=4&max-results=2"), ["ops: deploy", "dev: review"]);
    const beyond = await todo("start-index=50");
    assert.equal(entriesOf(beyond.xml).length, 0);
    assert.equal(nsChild(beyond.xml, "cbl", "totalCount")?.text, "6");
    assert.equal(entriesOf((await todo("max-results=101")).xml).length, 6, "above 100 is clamped");
    assertError(await todo("max-results=0"), 400, "INVALID_MAX_RESULTS");
    assertError(await todo("start-index=-1"), 400, "INVALID_START_INDEX");
  });

  it("updates, completes and deletes personal tasks; an update replaces every field", async () => {
    const id = await insert(`<title>Write report</title><cbl:when endTime="2026-05-01" allday="true"/>`);
    const updated = await write(
      taskBody("update", `<id>${id}</id><title>Write the report</title><cblTsk:status>COMPLETED</cblTsk:status>`),
    );
    assert.equal(updated.status, 200, updated.text);
    const entry = entriesOf(updated.xml)[0]!;
    assert.equal(atomText(entry, "title"), "Write the report");
    assert.equal(attribute(nsChild(entry, "cbl", "task")!, "valueString"), "完了");
    assert.equal(nsChild(entry, "cbl", "when"), undefined, "no due date sent: none kept");
    assert.equal(nsChild(entry, "cblTsk", "priority")?.text, "B");
    // An entry read back can be sent again: its label names the state.
    const again = await write(taskBody("update", `<id>${id}</id><title>t</title><cbl:task valueString="対応中"/>`));
    assert.equal(attribute(nsChild(entriesOf(again.xml)[0]!, "cbl", "task")!, "valueString"), "対応中");
    const deleted = await write(taskBody("delete", `<id>${id}</id>`));
    assert.equal(deleted.status, 200, deleted.text);
    assertError(await write(taskBody("delete", `<id>${id}</id>`)), 404, "TASK_NOT_FOUND");
    assert.ok(!(await titles("")).includes("t"));
  });

  it("refuses bad input with a clear error and changes nothing; every limit at its boundary", async () => {
    const before = (await todo("")).text;
    const max = "t".repeat(LIMITS.topicTitleMaxChars);
    assert.equal((await write(taskBody("insert", `<title>${max}</title>`))).status, 200);
    const count = nsChild((await todo("")).xml, "cbl", "totalCount")?.text;
    assertError(await write(taskBody("insert", `<title>${max}x</title>`)), 400, "TASK_TITLE_TOO_LONG");
    assertError(await write(taskBody("insert", `<title>  </title>`)), 400, "TASK_TITLE_REQUIRED");
    assertError(await write(taskBody("insert", `<summary>x</summary>`)), 400, "TASK_TITLE_REQUIRED");
    const body = "b".repeat(LIMITS.topicBodyMaxChars);
    assert.equal((await write(taskBody("insert", `<title>long</title><summary>${body}</summary>`))).status, 200);
    assertError(
      await write(taskBody("insert", `<title>long</title><summary>${body}b</summary>`)),
      400,
      "TASK_BODY_TOO_LONG",
    );
    assertError(
      await write(taskBody("insert", `<title>x</title><cbl:when endTime="2026-02-30"/>`)),
      400,
      "TASK_DUE_DATE_INVALID",
    );
    assertError(
      await write(taskBody("insert", `<title>x</title><cbl:when endTime="1899-12-31"/>`)),
      400,
      "TASK_DUE_OUT_OF_RANGE",
    );
    assert.equal(
      (await write(taskBody("insert", `<title>first day</title><cbl:when endTime="1900-01-01"/>`))).status,
      200,
    );
    assert.equal(
      (await write(taskBody("insert", `<title>last day</title><cbl:when endTime="2100-12-31"/>`))).status,
      200,
    );
    assertError(
      await write(taskBody("insert", `<title>x</title><cbl:when endTime="2101-01-01"/>`)),
      400,
      "TASK_DUE_OUT_OF_RANGE",
    );
    assertError(
      await write(taskBody("insert", `<title>x</title><cblTsk:priority>Z</cblTsk:priority>`)),
      400,
      "TASK_PRIORITY_INVALID",
    );
    assertError(
      await write(taskBody("insert", `<title>x</title><cblTsk:status>DONE</cblTsk:status>`)),
      400,
      "TASK_STATUS_INVALID",
    );
    assertError(await write(taskBody("move", `<title>x</title>`)), 400, "INVALID_OPERATION");
    assertError(await write(taskBody("update", `<title>x</title>`)), 400, "ENTRY_ID_REQUIRED");
    assertError(await write(taskBody("update", `<id>junk</id><title>x</title>`)), 400, "INVALID_ID");
    assertError(
      await write(`<feed ${ATOM}><entry><title>a</title></entry><entry><title>b</title></entry></feed>`),
      400,
      "MULTIPLE_ENTRIES",
    );
    assertError(await write(`<feed ${ATOM}></feed>`), 400, "ENTRY_REQUIRED");
    // A group task is not written here.
    const groupTask = entriesOf((await todo(`group=1:${dev.id}`)).xml)[0]!;
    assertError(await write(taskBody("delete", `<id>${atomText(groupTask, "id")}</id>`)), 404, "TASK_NOT_FOUND");
    assert.equal(nsChild((await todo("")).xml, "cbl", "totalCount")?.text, String(Number(count) + 3));
    assert.notEqual(before, "");
  });

  it("needs write access to write and read access to read", async () => {
    const reader = await server.factories.user({ level: "read" });
    assert.equal((await todo("", reader.token)).status, 200);
    assertError(await write(taskBody("insert", "<title>x</title>"), reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assertError(await todo("embed-comment=true", reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assert.equal((await request(`${server.url}/api/task/V2`)).status, 401);
  });

  it("keeps personal tasks private: others get 404, the owner a clear error for comments, likes, favorites", async () => {
    const id = await insert("<title>secret</title>");
    const asBob = (body: string) => write(body, bob.token);
    assertError(await asBob(taskBody("update", `<id>${id}</id><title>mine now</title>`)), 404, "TASK_NOT_FOUND");
    assertError(await asBob(taskBody("delete", `<id>${id}</id>`)), 404, "TASK_NOT_FOUND");
    // The same task number under bob's own id names nothing of his.
    const underBob = id.replace(`MYPAGE,1:${alice.id},`, `MYPAGE,1:${bob.id},`);
    assertError(await asBob(taskBody("delete", `<id>${underBob}</id>`)), 404, "TASK_NOT_FOUND");
    const comment = (token: string) =>
      request(`${server.url}/api/comment/V2`, {
        token,
        body: `<feed ${ATOM}><id>${id}</id><entry><summary type="text">hi</summary></entry></feed>`,
      });
    const react = (endpoint: string, token: string) =>
      request(`${server.url}/api/${endpoint}/V2`, {
        token,
        body: `<feed ${ATOM}><entry><id>${id}</id></entry></feed>`,
      });
    assertError(await comment(bob.token), 404, "TASK_NOT_FOUND");
    assertError(await request(`${server.url}/api/comment/V2?entry=${id}`, { token: bob.token }), 404, "TASK_NOT_FOUND");
    assertError(await react("good", bob.token), 404, "TASK_NOT_FOUND");
    assertError(await react("star", bob.token), 404, "TASK_NOT_FOUND");
    assertError(await request(`${server.url}/api/good/V2?id=${id}`, { token: bob.token }), 404, "TASK_NOT_FOUND");
    assertError(await comment(alice.token), 400, "PERSONAL_TASK_NOT_SUPPORTED");
    assertError(
      await request(`${server.url}/api/comment/V2?entry=${id}`, { token: alice.token }),
      400,
      "PERSONAL_TASK_NOT_SUPPORTED",
    );
    assertError(await react("good", alice.token), 400, "PERSONAL_TASK_NOT_SUPPORTED");
    assertError(await react("star", alice.token), 400, "PERSONAL_TASK_NOT_SUPPORTED");
    assert.ok((await titles("")).includes("secret"), "nothing changed");
    const notifications = await request(`${server.url}/api/notification/V2`, { token: bob.token });
    assert.ok(!notifications.text.includes("secret"), "no one is notified");
  });
});
