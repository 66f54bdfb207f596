import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Task } from "../../src/domain/task.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

const DAY = 24 * 60 * 60 * 1000;

describeEachBackend("web pages: writing tasks", (backend) => {
  let server: TestServer;
  let alice: TestUser; // manager
  let bob: TestUser;
  let carol: TestUser; // not in the group
  let group: Group;
  let other: Group;
  let g: string;
  let folderId: number;
  let otherFolderId: number;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    group = await f.group([alice, bob], { managers: [alice] });
    other = await f.group([carol]);
    folderId = await f.folder(group, "TASK", "Sprint");
    otherFolderId = await f.folder(other, "TASK", "Elsewhere");
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  const tasks = () =>
    server.store.read((tx) =>
      tx.tasks.list(group.id, { kind: "all" }, { term: undefined, notCompletedOnly: false }, { offset: 0, limit: 100 }),
    );
  const stored = (id: number) => server.store.read((tx) => tx.tasks.findById(id));
  const fields = (values: Record<string, string> = {}) => ({
    title: "Ship it",
    body: "Details\nsecond line",
    assignee: `1:${bob.id}`,
    dueDate: "2026-04-10",
    dueTime: "",
    zone: "UTC",
    priority: "A",
    status: "IN_PROGRESS",
    folder: `1:${folderId}`,
    ...values,
  });

  it("adds a task from the form with every field, and the other members are notified", async () => {
    const form = await aliceWeb.get(`${g}/tasks/new?folder=1:${folderId}`);
    assert.equal(form.status, 200);
    assert.match(form.html, new RegExp(`<option value="1:${folderId}" selected>Sprint</option>`), "the list's folder");
    assert.match(form.html, new RegExp(`<option value="1:${bob.id}">Bob</option>`), "members can be assigned");
    assert.doesNotMatch(form.html, /Carol/, "only the group's members");
    await assertValidHtml(form.html, "new task form");
    const answer = await aliceWeb.post(`${g}/tasks/new`, fields());
    assert.equal(answer.status, 303);
    const task = (await tasks()).find((t) => t.title === "Ship it")!;
    assert.equal(answer.location, `${g}/tasks/1:${task.id}`);
    assert.deepEqual(
      [task.body, task.assigneeId, task.dueAt, task.allDay, task.priority, task.status, task.folderId, task.authorId],
      ["Details\nsecond line", bob.id, Date.UTC(2026, 3, 10), true, "A", "IN_PROGRESS", folderId, alice.id],
    );
    const notified = await server.store.read((tx) => tx.notifications.unconfirmedOf(bob.id, "TASK", [task.id]));
    assert.equal(notified.has(task.id), true, "Bob is told");
    const page = await aliceWeb.get(answer.location ?? "");
    assert.match(
      page.html,
      /<dd><time datetime="2026-04-10">Apr 10, 2026<\/time><\/dd>/,
      "an all-day date as that day",
    );
    assert.match(page.html, /<div class="markdown body"><p>Details<br>\nsecond line<\/p>\n<\/div>/, "line breaks kept");
    await assertValidHtml(page.html, "task page");
  });

  it("reads a due time in the person's time zone and shows it back in it", async () => {
    await server.store.transaction((tx) => tx.users.update(alice.id, { timeZone: "Asia/Tokyo" }));
    const answer = await aliceWeb.post(
      `${g}/tasks/new`,
      fields({ title: "Timed", dueDate: "2026-04-10", dueTime: "09:30", zone: "Asia/Tokyo" }),
    );
    assert.equal(answer.status, 303);
    const task = (await tasks()).find((t) => t.title === "Timed")!;
    assert.equal(task.dueAt, Date.UTC(2026, 3, 10, 0, 30), "09:30 in Tokyo is 00:30 UTC");
    assert.equal(task.allDay, false);
    const edit = await aliceWeb.get(`${g}/tasks/1:${task.id}/edit`);
    assert.match(edit.html, /name="dueTime" type="time" value="09:30"/, "on the person's clock");
    assert.match(edit.html, /name="zone" value="Asia\/Tokyo"/);
    await assertValidHtml(edit.html, "edit task form");
    // Across a change of offset: 2026-03-08 03:30 in New York is after the spring-forward (UTC-4).
    await aliceWeb.post(
      `${g}/tasks/new`,
      fields({ title: "DST", dueDate: "2026-03-08", dueTime: "03:30", zone: "America/New_York" }),
    );
    assert.equal((await tasks()).find((t) => t.title === "DST")?.dueAt, Date.UTC(2026, 2, 8, 7, 30));
    await server.store.transaction((tx) => tx.users.update(alice.id, { timeZone: null }));
  });

  it("refuses what breaks a rule, keeps what was typed, says why, and stores nothing", async () => {
    const before = (await tasks()).length;
    await aliceWeb.get(`${g}/tasks/new`);
    for (const [values, message] of [
      [{ title: "" }, "The task title is missing or empty."],
      [{ title: "x".repeat(LIMITS.topicTitleMaxChars + 1) }, "The task title is longer than 200 characters."],
      [{ body: "字".repeat(LIMITS.topicBodyMaxChars + 1) }, "longer than 20000 characters"],
      [{ dueDate: "2026-02-30" }, "The due date must be a date such as 2026-04-01."],
      [{ dueDate: "1899-12-31" }, "between 1900-01-01 and 2100-12-31"],
      [{ dueDate: "2101-01-01" }, "between 1900-01-01 and 2100-12-31"],
      [{ dueDate: "", dueTime: "10:00" }, "A due time needs a due date."],
      [{ dueTime: "24:00" }, "The due time must be a time such as 09:30."],
      [{ dueTime: "10:00", zone: "Mars/Olympus" }, "The time zone must be one such as Asia/Tokyo or UTC."],
      [{ assignee: `1:${carol.id}` }, "The assignee must be a member of this group."],
      [{ assignee: "bob" }, "The assignee must be a member (got &quot;bob&quot;)."],
      [{ priority: "Z" }, "The priority must be one of S, A, B, C."],
      [{ status: "DONE" }, "The state must be one of NOT_STARTED, IN_PROGRESS, ON_HOLD, COMPLETED."],
      [{ folder: "sprint" }, "folder must be a folder id or UNCLASSIFIED."],
    ] as const) {
      const answer = await aliceWeb.post(`${g}/tasks/new`, fields({ body: "kept", ...values }));
      assert.equal(answer.status, 400, message);
      assert.ok(
        textOfId(answer.html, "form-error")?.includes(message),
        `${message}: ${textOfId(answer.html, "form-error")}`,
      );
      if (!("body" in values)) assert.ok(answer.html.includes(">kept</textarea>"), "the text typed is still there");
    }
    await assertValidHtml((await aliceWeb.post(`${g}/tasks/new`, fields({ title: "" }))).html, "form with an error");
    assert.equal((await aliceWeb.post(`${g}/tasks/new`, fields({ folder: `1:${otherFolderId}` }))).status, 404);
    assert.equal((await tasks()).length, before);
    // At the limits exactly: accepted.
    await aliceWeb.get(`${g}/tasks/new`);
    const edge = await aliceWeb.post(
      `${g}/tasks/new`,
      fields({
        title: "t".repeat(LIMITS.topicTitleMaxChars),
        body: "b".repeat(LIMITS.topicBodyMaxChars),
        dueDate: "2100-12-31",
      }),
    );
    assert.equal(edge.status, 303);
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    await ja.get(`${g}/tasks/new`);
    assert.equal(
      textOfId((await ja.post(`${g}/tasks/new`, fields({ title: "" }))).html, "form-error"),
      "タイトルを入力してください。",
    );
  });

  it("lets any member edit a task, including clearing the assignee, due date and folder", async () => {
    const task = await server.factories.task(group, alice, {
      title: "Draft",
      assigneeId: alice.id,
      dueAt: 0,
      allDay: true,
    });
    const path = `${g}/tasks/1:${task.id}`;
    const form = await bobWeb.get(`${path}/edit`);
    assert.match(form.html, new RegExp(`<option value="1:${alice.id}" selected>Alice</option>`));
    const saved = await bobWeb.post(
      `${path}/edit`,
      fields({ title: "Final", assignee: "", dueDate: "", folder: "", status: "ON_HOLD", priority: "S" }),
    );
    assert.equal(saved.status, 303);
    assert.equal(saved.location, path);
    const after = await stored(task.id);
    assert.deepEqual(
      [after?.title, after?.assigneeId, after?.dueAt, after?.folderId, after?.status, after?.priority, after?.authorId],
      ["Final", null, null, null, "ON_HOLD", "S", alice.id],
    );
  });

  it("marks tasks done and reopens them from the list, returning to it with its filters", async () => {
    const task = await server.factories.task(group, bob, { title: "Tick me", folderId });
    const list = await bobWeb.get(`${g}/tasks?state=NOT_COMPLETED&folder=1:${folderId}`);
    assert.match(list.html, new RegExp(`action="${g}/tasks/1:${task.id}/complete"`));
    assert.match(list.html, /<input type="hidden" name="state" value="NOT_COMPLETED">/);
    await assertValidHtml(list.html, "task list with buttons");
    const done = await bobWeb.post(`${g}/tasks/1:${task.id}/complete`, {
      back: "list",
      state: "NOT_COMPLETED",
      folder: `1:${folderId}`,
      bogus: "dropped",
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, `${g}/tasks?state=NOT_COMPLETED&folder=1%3A${folderId}`);
    assert.equal((await stored(task.id))?.status, "COMPLETED");
    assert.doesNotMatch((await bobWeb.get(done.location ?? "")).html, /Tick me/, "the filter hides it now");
    const page = await bobWeb.get(`${g}/tasks/1:${task.id}`);
    assert.match(page.html, new RegExp(`action="${g}/tasks/1:${task.id}/reopen"`));
    const reopened = await bobWeb.post(`${g}/tasks/1:${task.id}/reopen`);
    assert.equal(reopened.location, `${g}/tasks/1:${task.id}`, "from the task's page, back to it");
    assert.equal((await stored(task.id))?.status, "NOT_STARTED");
  });

  it("marks overdue tasks with a word, not a colour alone, until they are done", async () => {
    const now = server.clock.now();
    const late = await server.factories.task(group, alice, { title: "Late one", dueAt: now - 60_000 });
    const yesterday = Math.floor(now / DAY) * DAY - DAY;
    await server.factories.task(group, alice, { title: "Yesterday's", dueAt: yesterday, allDay: true });
    await server.factories.task(group, alice, { title: "Today's", dueAt: yesterday + DAY, allDay: true });
    await server.factories.task(group, alice, { title: "Finished late", dueAt: now - DAY, status: "COMPLETED" });
    const list = await aliceWeb.get(`${g}/tasks`);
    const row = (title: string) =>
      new RegExp(`<tr class="[^"]*">(?:(?!</tr>)[\\s\\S])*${title}(?:(?!</tr>)[\\s\\S])*</tr>`).exec(list.html)?.[0] ??
      "";
    assert.match(row("Late one"), /<span class="badge-overdue">Overdue<\/span>/);
    assert.match(row("Yesterday&#39;s"), /Overdue/);
    assert.doesNotMatch(row("Today&#39;s"), /Overdue/, "an all-day task is due until its day ends");
    assert.doesNotMatch(row("Finished late"), /Overdue/, "done is not overdue");
    assert.match((await aliceWeb.get(`${g}/tasks/1:${late.id}`)).html, /badge-overdue/);
  });

  it("moves a task to the trash and back, deletes it for good only from there, and only its author or a manager", async () => {
    const task: Task = await server.factories.task(group, bob, { title: "Bin me" });
    const path = `${g}/tasks/1:${task.id}`;
    const mine = await server.factories.task(group, alice, { title: "Alice's" });
    await bobWeb.get(`${g}/tasks/1:${mine.id}`);
    assert.equal((await bobWeb.post(`${g}/tasks/1:${mine.id}/trash`)).status, 403, "Bob is neither author nor manager");
    assert.doesNotMatch((await bobWeb.get(`${g}/tasks/1:${mine.id}`)).html, /Move to trash/);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/delete`)).status, 409, "not in the trash");
    const trashed = await bobWeb.post(`${path}/trash`);
    assert.equal(trashed.location, path);
    assert.equal((await stored(task.id))?.trashed, true);
    const page = await bobWeb.get(path);
    assert.match(page.html, /This task is in the trash\./);
    assert.match(page.html, /<summary class="button danger">Delete for good<\/summary>/);
    assert.doesNotMatch(page.html, /\/(complete|edit)"/, "no changes in the trash");
    await assertValidHtml(page.html, "task in the trash");
    assert.equal((await bobWeb.get(`${path}/edit`)).status, 409);
    assert.match((await bobWeb.get(`${g}/tasks?folder=TRASH`)).html, /Bin me/);
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/complete`)).status, 409);
    await bobWeb.post(`${path}/restore`);
    assert.equal((await stored(task.id))?.trashed, false);
    await bobWeb.post(`${path}/trash`);
    await aliceWeb.get(path);
    const gone = await aliceWeb.post(`${path}/delete`);
    assert.equal(gone.status, 303, "a manager may delete it");
    assert.equal(gone.location, `${g}/tasks?folder=TRASH`);
    assert.equal(await stored(task.id), undefined);
  });

  it("refuses everything to someone outside the group, and changes nothing", async () => {
    const task = await server.factories.task(group, alice, { title: "Private" });
    const web = new WebClient(server.url);
    await web.signIn(carol.email);
    for (const path of [`${g}/tasks/new`, `${g}/tasks/1:${task.id}/edit`]) {
      const answer = await web.get(path);
      assert.equal(answer.status, 403, path);
      assert.doesNotMatch(answer.html, /Private|Alice|Sprint/);
    }
    await web.get("/");
    for (const [path, body] of [
      [`${g}/tasks/new`, fields({ title: "Intruder" })],
      [`${g}/tasks/1:${task.id}/edit`, fields({ title: "Hacked" })],
      [`${g}/tasks/1:${task.id}/complete`, {}],
      [`${g}/tasks/1:${task.id}/trash`, {}],
      [`${g}/tasks/1:${task.id}/delete`, {}],
    ] as const) {
      assert.equal((await web.post(path, body)).status, 403, path);
    }
    const after = await stored(task.id);
    assert.deepEqual([after?.title, after?.status, after?.trashed], ["Private", "NOT_STARTED", false]);
    assert.equal(
      (await tasks()).some((t) => t.title === "Intruder"),
      false,
    );
    // Another group's address does not reach the task.
    await web.get("/");
    assert.equal((await web.post(`/g/1:${other.id}/tasks/1:${task.id}/complete`)).status, 404);
  });
});
