// Notifications in the words people use (#31 part 6): "assigned it to you", "completed it",
// "reopened it", "uploaded version 2 of plan.txt", "replied to you", in English and Japanese,
// while the API's notification entries stay as they were.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

/** The text of the notification row whose title is `title`. */
function rowText(html: string, title: string): string {
  const row = [...html.matchAll(/<li class="row(?: unread)?">([\s\S]*?)<\/li>/g)]
    .map((m) => m[1] ?? "")
    .find((inner) => inner.includes(`>${title}<`));
  assert.ok(row !== undefined, `a row titled ${title}`);
  return row
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describeEachBackend("notifications in the words people use", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;
  let g: string;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let carolWeb: WebClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    group = await server.factories.group([alice, bob, carol], { managers: [alice] });
    g = `/g/1:${group.id}`;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    carolWeb = new WebClient(server.url, "ja");
    await carolWeb.signIn(carol.email);
  });
  after(() => server.close());

  const notifications = async (web: WebClient) => {
    const page = await web.get("/notifications?show=all");
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "notifications");
    return page.html;
  };

  it("says who a task was given to, and when it was completed and reopened", async () => {
    const task = await server.factories.task(group, bob, { title: "Book the room" });
    const path = `${g}/tasks/1:${task.id}`;
    await bobWeb.get(`${path}/edit`);
    const fields = {
      title: "Book the room",
      body: "",
      assignee: `1:${alice.id}`,
      dueDate: "",
      dueTime: "",
      zone: "UTC",
      priority: "A",
      status: "NOT_STARTED",
      folder: "",
    };
    assert.equal((await bobWeb.post(`${path}/edit`, fields)).status, 303);
    server.clock.advance(1000);
    assert.equal(rowText(await notifications(aliceWeb), "Book the room").includes("Bob assigned it to you"), true);
    assert.match(rowText(await notifications(carolWeb), "Book the room"), /Bob さんが担当者を変更しました/);

    await aliceWeb.get(path);
    assert.equal((await aliceWeb.post(`${path}/complete`)).status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(bobWeb), "Book the room"), /Alice completed it/);
    assert.match(rowText(await notifications(carolWeb), "Book the room"), /Alice さんが完了にしました/);

    assert.equal((await aliceWeb.post(`${path}/reopen`)).status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(bobWeb), "Book the room"), /Alice reopened it/);

    // An edit that changes neither the status nor the assignee is a change like any other.
    await bobWeb.get(`${path}/edit`);
    assert.equal((await bobWeb.post(`${path}/edit`, { ...fields, priority: "C" })).status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(aliceWeb), "Book the room"), /Bob changed it/);
  });

  it("names the new version and the file", async () => {
    const upload = async (web: WebClient, path: string, fields: Record<string, string>, name: string) => {
      await web.get(`${g}/files`);
      const form = new FormData();
      form.set("_csrf", web.csrf());
      for (const [field, value] of Object.entries(fields)) form.set(field, value);
      form.append("file", new Blob([`bytes of ${name}`]), name);
      return web.postMultipart(path, form);
    };
    const created = await upload(bobWeb, `${g}/files`, { title: "", memo: "", folder: "" }, "plan.txt");
    assert.equal(created.status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(aliceWeb), "plan.txt"), /Bob posted it/);
    const version = await upload(bobWeb, `${created.location}/versions`, { comment: "" }, "plan.txt");
    assert.equal(version.status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(aliceWeb), "plan.txt"), /Bob uploaded version 2 of plan\.txt/);
    assert.match(
      rowText(await notifications(carolWeb), "plan.txt"),
      /Bob さんが plan\.txt の第 2 版をアップロードしました/,
    );
  });

  it("tells the author of a comment that someone replied to them, and the others that someone commented", async () => {
    const topic = await server.factories.topic(group, alice, { title: "Lunch on Friday" });
    const path = `${g}/board/1:${topic.id}`;
    await bobWeb.get(path);
    assert.equal((await bobWeb.post(`${path}/comments`, { text: "Noodles?" })).status, 303);
    server.clock.advance(1000);
    await carolWeb.get(path);
    assert.equal((await carolWeb.post(`${path}/comments`, { text: "Yes", replyTo: "1" })).status, 303);
    server.clock.advance(1000);
    assert.match(rowText(await notifications(bobWeb), "Lunch on Friday"), /Carol replied to you/);
    assert.match(rowText(await notifications(aliceWeb), "Lunch on Friday"), /Carol commented/);
  });
});
