import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web pages: the ToDo page", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let assignedId: number;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    group = await f.group([alice, bob], { name: "Dev team" });
    assignedId = (await f.task(group, bob, { title: "Review the plan", assigneeId: alice.id })).id;
    await f.task(group, bob, { title: "Bob's chore", assigneeId: bob.id });
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
  });
  after(() => server.close());

  const personal = () =>
    server.store.read((tx) =>
      tx.personalTasks.todoPage(
        { userId: alice.id, groupId: undefined, filter: { term: undefined, notCompletedOnly: false } },
        { offset: 0, limit: 100 },
      ),
    );

  it("lists the tasks assigned across groups, links them to their group, and is linked from the header", async () => {
    const page = await aliceWeb.get("/todo");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "ToDo page");
    assert.match(page.html, /<a href="\/todo" aria-current="page">ToDo<\/a>/);
    assert.match(page.html, new RegExp(`href="/g/1:${group.id}/tasks/1:${assignedId}">Review the plan</a>`));
    assert.match(page.html, /Dev team/);
    assert.doesNotMatch(page.html, /Bob&#39;s chore|Bob's chore/, "another person's assignment is not mine");
    const home = await aliceWeb.get("/");
    assert.match(home.html, /href="\/todo"/);
    const phone = await aliceWeb.get("/m/todo");
    assert.equal(phone.status, 200);
  });

  it("adds, edits, completes, reopens and deletes a personal task with plain forms", async () => {
    await aliceWeb.get("/todo");
    const added = await aliceWeb.post("/todo/new", {
      title: "Buy milk",
      dueDate: "2026-04-10",
      dueTime: "",
      zone: "UTC",
      priority: "A",
      status: "NOT_STARTED",
    });
    assert.equal(added.status, 303);
    assert.equal(added.location, "/todo");
    const [ref] = (await personal()).filter((row) => row.source === "PERSONAL");
    assert.ok(ref);
    const list = await aliceWeb.get("/todo");
    assert.match(list.html, new RegExp(`href="/todo/1:${ref.id}">Buy milk</a>`));
    assert.match(list.html, /Personal/);
    const form = await aliceWeb.get(`/todo/1:${ref.id}`);
    assert.equal(form.status, 200);
    await assertValidHtml(form.html, "personal task form");
    assert.match(form.html, /value="Buy milk"/);
    assert.doesNotMatch(form.html, /name="assignee"|name="folder"/, "no assignee or folder");
    const edited = await aliceWeb.post(`/todo/1:${ref.id}`, {
      title: "Buy oat milk",
      body: "two",
      dueDate: "",
      dueTime: "",
      zone: "UTC",
      priority: "C",
      status: "IN_PROGRESS",
    });
    assert.equal(edited.status, 303);
    const stored = await server.store.read((tx) => tx.personalTasks.findById(ref.id));
    assert.equal(stored?.title, "Buy oat milk");
    assert.equal(stored?.dueAt, null);
    assert.equal(stored?.status, "IN_PROGRESS");
    await aliceWeb.get("/todo");
    const done = await aliceWeb.post(`/todo/1:${ref.id}/complete`, { state: "open" });
    assert.equal(done.status, 303);
    assert.equal(done.location, "/todo?state=open");
    const open = await aliceWeb.get("/todo?state=open");
    assert.doesNotMatch(open.html, /Buy oat milk/, "done: hidden by the filter");
    assert.match(open.html, /Review the plan/);
    assert.match((await aliceWeb.get("/todo")).html, /Buy oat milk/);
    await aliceWeb.post(`/todo/1:${ref.id}/reopen`);
    assert.equal((await server.store.read((tx) => tx.personalTasks.findById(ref.id)))?.status, "NOT_STARTED");
    await aliceWeb.get("/todo");
    assert.equal((await aliceWeb.post(`/todo/1:${ref.id}/delete`)).status, 303);
    assert.equal(await server.store.read((tx) => tx.personalTasks.findById(ref.id)), undefined);
  });

  it("refuses bad input with the form again and a clear message, in either language; limits at their boundary", async () => {
    await aliceWeb.get("/todo");
    const before = (await personal()).length;
    const max = "t".repeat(LIMITS.topicTitleMaxChars);
    const base = { dueDate: "", dueTime: "", zone: "UTC", priority: "B", status: "NOT_STARTED" };
    const tooLong = await aliceWeb.post("/todo/new", { ...base, title: `${max}x` });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.html, /role="alert"/);
    await assertValidHtml(tooLong.html, "refused form");
    assert.equal((await aliceWeb.post("/todo/new", { ...base, title: "x", dueDate: "2026-02-30" })).status, 400);
    assert.equal((await aliceWeb.post("/todo/new", { ...base, title: "x", priority: "Z" })).status, 400);
    assert.equal((await personal()).length, before, "nothing added");
    assert.equal((await aliceWeb.post("/todo/new", { ...base, title: max })).status, 303);
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(alice.email);
    const page = await ja.get("/todo");
    assert.match(page.html, /個人の ToDo を追加/);
    const refused = await ja.post("/todo/new", { ...base, title: " " });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /タイトルを入力してください。/);
  });

  it("marks an assigned group task done from the ToDo page and comes back to it", async () => {
    await aliceWeb.get("/todo");
    const done = await aliceWeb.post(`/g/1:${group.id}/tasks/1:${assignedId}/complete`, {
      back: "todo",
      state: "open",
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, "/todo?state=open");
    assert.equal((await server.store.read((tx) => tx.tasks.findById(assignedId)))?.status, "COMPLETED");
    assert.doesNotMatch((await aliceWeb.get("/todo?state=open")).html, /Review the plan/);
    await aliceWeb.post(`/g/1:${group.id}/tasks/1:${assignedId}/reopen`, { back: "todo" });
  });

  it("keeps personal tasks private: another person gets not found for every action", async () => {
    await aliceWeb.get("/todo");
    await aliceWeb.post("/todo/new", {
      title: "Secret",
      dueDate: "",
      dueTime: "",
      zone: "UTC",
      priority: "B",
      status: "NOT_STARTED",
    });
    const secret = (await personal()).find((row) => row.source === "PERSONAL");
    assert.ok(secret);
    assert.equal((await bobWeb.get(`/todo/1:${secret.id}`)).status, 404);
    await bobWeb.get("/todo");
    for (const action of ["", "/complete", "/reopen", "/delete"])
      assert.equal(
        (await bobWeb.post(`/todo/1:${secret.id}${action}`, { title: "mine", status: "NOT_STARTED", priority: "B" }))
          .status,
        404,
        action,
      );
    assert.doesNotMatch((await bobWeb.get("/todo")).html, /Secret/);
    assert.ok(await server.store.read((tx) => tx.personalTasks.findById(secret.id)), "still there");
  });
});
