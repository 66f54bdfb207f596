// A group's incoming webhooks on the web (`/g/1:n/hooks`): linked from the members page for its
// managers; a manager makes one (its address shown once, and it posts), sees and revokes it, in
// both languages; an ordinary member is refused.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { writeRoom } from "../../src/services/chat/chat.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web: a group's incoming webhooks", (backend) => {
  let server: TestServer;
  let manager: TestUser;
  let member: TestUser;
  let group: Group;

  before(async () => {
    server = await startTestServer(backend);
    manager = await server.factories.user({ name: "Mia" });
    member = await server.factories.user({ name: "Ned" });
    group = await server.factories.group([manager, member], { managers: [manager] });
  });
  after(() => server.close());

  it("makes a hook, shows its address once, lists it and revokes it", async () => {
    const web = new WebClient(server.url);
    await web.signIn(manager.email);
    const members = await web.get(`/g/1:${group.id}/members`);
    assert.match(members.html, new RegExp(`href="/g/1:${group.id}/hooks"`), "linked from the members page");
    const page = await web.get(`/g/1:${group.id}/hooks`);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "hooks page");
    const made = await web.post(`/g/1:${group.id}/hooks`, { change: "add", name: "CI", topic: "" });
    assert.equal(made.status, 200, made.html);
    const address = /<code id="hook-address">([^<]+)<\/code>/.exec(made.html)?.[1] ?? "";
    assert.match(address, /\/hooks\/[A-Za-z0-9_-]{32}$/);
    const secret = address.split("/").pop() ?? "";
    const posted = await fetch(`${server.url}/hooks/${secret}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "hello from CI" }),
    });
    assert.equal(posted.status, 201);
    const listed = await web.get(`/g/1:${group.id}/hooks`);
    assert.match(listed.html, /<strong>CI<\/strong>/);
    assert.ok(!listed.html.includes(secret), "the address is never shown again");
    const refused = await web.post(`/g/1:${group.id}/hooks`, { change: "add", name: "a*b", topic: "" });
    assert.equal(refused.status, 400);
    const id = /name="id" value="([^"]+)"/.exec(listed.html)?.[1] ?? "";
    const removed = await web.post(`/g/1:${group.id}/hooks`, { change: "remove", id }, { csrf: undefined });
    assert.ok(removed.status === 303 || removed.status === 302, String(removed.status));
    const gone = await fetch(`${server.url}/hooks/${secret}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "again" }),
    });
    assert.equal(gone.status, 404);
    const ja = new WebClient(server.url, "ja");
    await ja.signIn(manager.email);
    assert.match((await ja.get(`/g/1:${group.id}/hooks`)).html, /受信 Webhook/);
  });

  it("refuses an ordinary member", async () => {
    const web = new WebClient(server.url);
    await web.signIn(member.email);
    assert.equal((await web.get(`/g/1:${group.id}/hooks`)).status, 403);
  });

  it("makes a chat room's hook from the room's page, for its members only", async () => {
    const ctx = { store: server.store, blobs: server.blobs, clock: server.clock };
    const actor = {
      user: { id: member.id, name: member.name, email: member.email },
      app: { id: 0, name: "t", consumerKey: "", accessLevel: "Z" as const },
    };
    const room = await writeRoom(ctx, actor, { op: "create", type: "THEME", title: "ops", memberIds: [manager.id] });
    const roomId = room.room.id;
    const web = new WebClient(server.url);
    await web.signIn(member.email);
    const roomPage = await web.get(`/mpChat/view?chatRoomId=1%23${roomId}`);
    assert.match(roomPage.html, new RegExp(`href="/mpChat/hooks\\?chatRoomId=1%23${roomId}"`), "linked from the room");
    const page = await web.get(`/mpChat/hooks?chatRoomId=1%23${roomId}`);
    assert.equal(page.status, 200, page.html);
    await assertValidHtml(page.html, "room hooks page");
    const made = await web.post("/mpChat/hooks", { change: "add", name: "Alerts", chatRoomId: `1#${roomId}` });
    assert.equal(made.status, 200, made.html);
    const address = /<code id="hook-address">([^<]+)<\/code>/.exec(made.html)?.[1] ?? "";
    const posted = await fetch(address.replace(/^https?:\/\/[^/]+/, server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "disk full" }),
    });
    assert.equal(posted.status, 201);
    const stranger = await server.factories.user({ name: "Stranger" });
    const other = new WebClient(server.url);
    await other.signIn(stranger.email);
    const refused = await other.get(`/mpChat/hooks?chatRoomId=1%23${roomId}`);
    assert.equal(refused.status, 404);
    assert.ok(!refused.html.includes("Alerts"));
  });
});
