import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_LIMITS } from "../../src/domain/limits.js";
import { ChatClient } from "../support/chat.js";
import { atomText, entriesOf } from "../support/http.js";
import type { TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web chat pages", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let stranger: TestUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let strangerWeb: WebClient;
  let groupId: number;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    stranger = await server.factories.user({ name: "Stranger" });
    groupId = (await server.factories.group([alice, bob], { name: "Team" })).id;
    aliceWeb = new WebClient(server.url);
    await aliceWeb.signIn(alice.email);
    bobWeb = new WebClient(server.url);
    await bobWeb.signIn(bob.email);
    strangerWeb = new WebClient(server.url);
    await strangerWeb.signIn(stranger.email);
  });
  after(() => server.close());

  it("creates a THEME room from the room list, sends a message and shows it with its author", async () => {
    const list = await aliceWeb.get("/mpChat");
    assert.equal(list.status, 200);
    await assertValidHtml(list.html, "the room list");
    assert.match(list.html, /href="\/mpChat" aria-current="page"/, "the site navigation links chat");
    assert.match(list.html, /value="\d+"> Bob/, "Bob shares a group: he can be chosen");
    assert.ok(!list.html.includes("Stranger"), "people sharing no group are not offered");
    const created = await aliceWeb.post("/mpChat", { title: "Lunch", member: String(bob.id) });
    assert.equal(created.status, 303);
    const match = /\/mpChat\/view\?chatRoomId=1%23(\d+)$/.exec(created.location ?? "");
    assert.ok(match, `redirected to the room's page: ${created.location}`);
    const roomId = Number(match[1]);
    const page = await aliceWeb.get(created.location!);
    assert.equal(page.status, 200);
    await assertValidHtml(page.html, "the conversation");
    const sent = await aliceWeb.post("/mpChat/send", { chatRoomId: `1#${roomId}`, text: "Noodles & rice?" });
    assert.equal(sent.status, 303);
    const bobs = await bobWeb.get("/mpChat");
    assert.match(bobs.html, /1 unread/, "Bob sees one unread message in the list");
    const room = await bobWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`);
    assert.match(room.html, /<strong class="author">Alice<\/strong>/);
    assert.match(room.html, /Noodles &amp; rice\?/);
    assert.ok(!(await bobWeb.get("/mpChat")).html.includes("1 unread"), "opening the room reads it");
    const fresh = await bobWeb.get(`/mpChat/messages?chatRoomId=1%23${roomId}&after=0`);
    assert.equal(fresh.status, 200);
    assert.match(fresh.html, /id="chat-new"[\s\S]*Noodles/);
    assert.ok(!(await bobWeb.get(`/mpChat/messages?chatRoomId=1%23${roomId}&after=1`)).html.includes("Noodles"));
    assert.equal((await strangerWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`)).status, 404);
  });

  it("opens a DIRECT conversation from the member list's Message button, once per pair", async () => {
    const members = await aliceWeb.get(`/g/1:${groupId}/members`);
    assert.match(members.html, new RegExp(`name="user" value="${bob.id}"`));
    assert.ok(!members.html.includes(`name="user" value="${alice.id}"`), "no button on one's own row");
    const first = await aliceWeb.post("/mpChat/direct", { user: String(bob.id) });
    const second = await bobWeb.post("/mpChat/direct", { user: String(alice.id) });
    assert.equal(first.status, 303);
    assert.equal(first.location, second.location, "the pair's one room");
    assert.equal((await strangerWeb.post("/mpChat/direct", { user: String(alice.id) })).status, 400);
  });

  it("mutes, renames, and deletes one's own message", async () => {
    const chat = new ChatClient(server);
    const roomId = await chat.theme(alice, "Plans", [bob]);
    await chat.say(bob, roomId, "mine");
    const key = `1#${roomId}`;
    assert.equal((await bobWeb.post("/mpChat/mute", { chatRoomId: key, muted: "true" })).status, 303);
    assert.match((await bobWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`)).html, /Unmute notifications/);
    assert.equal((await bobWeb.post("/mpChat/update", { chatRoomId: key, title: "Plans 2" })).status, 303);
    assert.match((await aliceWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`)).html, /<h1>Plans 2<\/h1>/);
    assert.equal((await aliceWeb.post("/mpChat/delete", { chatRoomId: key, number: "1" })).status, 403);
    assert.equal((await bobWeb.post("/mpChat/delete", { chatRoomId: key, number: "1" })).status, 303);
    assert.match((await bobWeb.get(`/mpChat/view?chatRoomId=1%23${roomId}`)).html, /No messages yet/);
  });

  it("lets the author edit a message: the page and the API show the new text, marked edited; nobody else may", async () => {
    const chat = new ChatClient(server);
    const roomId = await chat.theme(alice, "Edits", [bob]);
    await chat.say(alice, roomId, "see you at 3");
    const key = `1#${roomId}`;
    const view = `/mpChat/view?chatRoomId=1%23${roomId}`;
    const page = await aliceWeb.get(view);
    assert.match(page.html, /<form method="post" action="\/mpChat\/edit" class="stack">/);
    assert.match(
      page.html,
      /<textarea id="edit-comment-1" name="text" rows="3" maxlength="3000">see you at 3<\/textarea>/,
    );
    await assertValidHtml(page.html, "a conversation with an editable message");
    assert.doesNotMatch((await bobWeb.get(view)).html, /action="\/mpChat\/edit"/, "not Bob's message: no form");
    assert.equal((await bobWeb.post("/mpChat/edit", { chatRoomId: key, number: "1", text: "hijacked" })).status, 403);
    await aliceWeb.get(view);
    const csrf = aliceWeb.csrf();
    const tooLong = "字".repeat(CHAT_LIMITS.messageMaxChars + 1);
    assert.equal(
      (await aliceWeb.post("/mpChat/edit", { chatRoomId: key, number: "1", text: tooLong }, { csrf })).status,
      400,
    );
    server.clock.advance(60_000);
    const saved = await aliceWeb.post(
      "/mpChat/edit",
      { chatRoomId: key, number: "1", text: "see you at **4**" },
      { csrf },
    );
    assert.equal(saved.status, 303);
    assert.equal(saved.location, `/mpChat/view?chatRoomId=1%23${roomId}#comment-1`);
    const shown = await bobWeb.get(view);
    assert.match(shown.html, /<div class="markdown"><p>see you at <strong>4<\/strong><\/p>/);
    assert.match(shown.html, /<span class="edited">edited <time /);
    assert.doesNotMatch(shown.html, /hijacked/);
    const entry = entriesOf((await chat.messages(bob, roomId)).xml)[0]!;
    assert.equal(atomText(entry, "summary"), "see you at **4**", "the API serves the text as written");
    assert.ok(atomText(entry, "published"), "and when it was first written");
    const longest = "字".repeat(CHAT_LIMITS.messageMaxChars);
    assert.equal(
      (await aliceWeb.post("/mpChat/edit", { chatRoomId: key, number: "1", text: longest }, { csrf })).status,
      303,
    );
  });

  it("sends files from the conversation form and shows them with download links and image previews", async () => {
    const chat = new ChatClient(server);
    const roomId = await chat.theme(alice, "Photos", [bob]);
    const path = `/mpChat/view?chatRoomId=1%23${roomId}`;
    const page = await aliceWeb.get(path);
    assert.match(page.html, /<form method="post" action="\/mpChat\/send" enctype="multipart\/form-data"/);
    const form = new FormData();
    form.append("_csrf", aliceWeb.csrf());
    form.append("chatRoomId", `1#${roomId}`);
    form.append("text", "");
    form.append("files", new Blob(["hello"], { type: "text/plain" }), "notes.txt");
    form.append("files", new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }), "pic.png");
    const sent = await aliceWeb.postMultipart("/mpChat/send", form);
    assert.equal(sent.status, 303, sent.html.slice(0, 300));
    const room = await bobWeb.get(path);
    await assertValidHtml(room.html, "a conversation with files");
    const link = new RegExp(
      `href="(/download\\?id=MYPAGE%2C1%3A${bob.id}%2CMP_CHAT%2C1%3A${roomId}%2CCOMMENT%2C1%2CATTACHMENT%2C1)"`,
    );
    const href = link.exec(room.html)?.[1];
    assert.ok(href, room.html);
    const got = await bobWeb.get(href.replace(/&amp;/g, "&"));
    assert.equal(got.status, 200);
    assert.equal(got.html, "hello");
    assert.match(
      room.html,
      /<img class="preview" src="[^"]*ATTACHMENT%2C2&amp;inline=true"/,
      "the image has a preview",
    );
    assert.ok(!/<img class="preview" src="[^"]*ATTACHMENT%2C1&amp;inline=true"/.test(room.html), "text has none");
    const fresh = await bobWeb.get(`/mpChat/messages?chatRoomId=1%23${roomId}&after=0`);
    assert.match(fresh.html, /id="chat-new"[\s\S]*notes\.txt/, "the live list carries the files too");
    const empty = await aliceWeb.post("/mpChat/send", { chatRoomId: `1#${roomId}`, text: " " });
    assert.equal(empty.status, 400, "neither text nor a file");
    const stranger = new FormData();
    await strangerWeb.get("/mpChat");
    stranger.append("_csrf", strangerWeb.csrf());
    stranger.append("chatRoomId", `1#${roomId}`);
    stranger.append("text", "let me in");
    assert.equal((await strangerWeb.postMultipart("/mpChat/send", stranger)).status, 404);
  });

  it("likes and unlikes a message with its button, the count shown to every member", async () => {
    const chat = new ChatClient(server);
    const roomId = await chat.theme(alice, "Likes", [bob]);
    await chat.say(alice, roomId, "like this");
    const key = `1#${roomId}`;
    const path = `/mpChat/view?chatRoomId=1%23${roomId}`;
    const before = await bobWeb.get(path);
    assert.match(before.html, /<span class="like-count" data-count="0">/);
    const liked = await bobWeb.post("/mpChat/like", { chatRoomId: key, number: "1", on: "true" });
    assert.equal(liked.status, 303);
    assert.equal(liked.location, `${path}#comment-1`);
    const seen = await aliceWeb.get(path);
    await assertValidHtml(seen.html, "a conversation with a like");
    assert.match(seen.html, /<span class="like-count" data-count="1">1 likes<\/span>/);
    assert.match((await bobWeb.get(path)).html, /name="on" value="false"[\s\S]*Unlike/, "Bob's button now unlikes");
    assert.match((await aliceWeb.get("/notifications/likes")).html, /like this/, "Alice's like notifications list it");
    const confirmed = await aliceWeb.post("/notifications/likes/confirm", {
      id: `MYPAGE,1:${alice.id},MP_CHAT,1:${roomId},COMMENT,1`,
    });
    assert.equal(confirmed.status, 303);
    assert.ok(!(await aliceWeb.get("/notifications/likes")).html.includes("like this"), "confirmed from the page");
    assert.match((await aliceWeb.get("/notifications/likes?show=all")).html, /like this/);
    assert.equal((await strangerWeb.post("/mpChat/like", { chatRoomId: key, number: "1", on: "true" })).status, 404);
    await bobWeb.post("/mpChat/like", { chatRoomId: key, number: "1", on: "false" });
    assert.match((await aliceWeb.get(path)).html, /data-count="0"/);
  });
});
