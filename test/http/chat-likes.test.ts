import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { type Answer, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { BoardClient } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { openSse } from "../support/sse.js";

describeEachBackend("likes of chat messages (/api/good/V2, /api/goodNotification/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let chat: ChatClient;
  let room: number;

  const messageId = (viewer: TestUser, r: number, n: number) => `${roomId(viewer, r)},COMMENT,${n}`;
  const likeWrite = (user: TestUser, id: string, on = true): Promise<Answer> =>
    request(`${server.url}/api/good/V2`, {
      token: user.token,
      body: `<feed ${CHAT_NS}><cbl:operation type="${on ? "insert" : "delete"}"/><entry><id>${id}</id></entry></feed>`,
    });
  const likers = (user: TestUser, id: string) =>
    request(`${server.url}/api/good/V2?id=${encodeURIComponent(id)}`, { token: user.token });
  const likeNotifications = (user: TestUser, query = "") =>
    request(`${server.url}/api/goodNotification/V2${query}`, { token: user.token });
  const confirm = (user: TestUser, ids: readonly string[]) =>
    request(`${server.url}/api/goodNotification/V2`, {
      token: user.token,
      body: `<feed ${CHAT_NS}>${ids.map((id) => `<entry><id>${id}</id></entry>`).join("")}</feed>`,
    });
  const good = (entry: XmlElement, name: "set" | "count") => nsChild(entry, "cblGood", name)?.text;
  /** The number of the message a push answered. */
  const numberOf = (entry: XmlElement) => Number(/COMMENT,([0-9]+)$/.exec(atomText(entry, "id") ?? "")?.[1]);
  const say = async (user: TestUser, r: number, text: string) => numberOf(await chat.say(user, r, text));

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    await server.factories.group([alice, bob, carol], { name: "Team" });
    chat = new ChatClient(server);
    room = await chat.theme(alice, "Likes", [bob]);
  });
  after(() => server.close());

  it("likes a member's message: the answer, the likers, cblGood on the message for each reader", async () => {
    const n = await say(alice, room, "like me");
    const written = await likeWrite(bob, messageId(bob, room, n));
    assert.equal(written.status, 200, written.text);
    await assertValidAtom(written.text);
    const entry = entriesOf(written.xml)[0]!;
    assert.equal(atomText(entry, "id"), messageId(bob, room, n), "written from the liker's side");
    assert.equal(atomText(entry, "title"), "Likes");
    assert.deepEqual(
      entry.children.filter((c) => c.local === "category").map((c) => c.attributes.get("term")),
      ["MYPAGE", "MP_CHAT", "COMMENT", "GOOD"],
    );
    const listed = await likers(alice, messageId(alice, room, n));
    assert.equal(listed.status, 200, listed.text);
    await assertValidAtom(listed.text);
    const likedEntry = entriesOf(listed.xml)[0]!;
    assert.equal(good(likedEntry, "set"), "false");
    assert.deepEqual(
      likedEntry.children
        .filter((c) => c.local === "who")
        .map((c) => [c.attributes.get("valueString"), c.attributes.get("id")]),
      [["Bob", `1:${bob.id}`]],
    );
    assert.equal(good(entriesOf((await likers(bob, messageId(bob, room, n))).xml)[0]!, "set"), "true");
    const forAlice = entriesOf((await chat.messages(alice, room)).xml).find((e) => numberOf(e) === n)!;
    assert.deepEqual([good(forAlice, "set"), good(forAlice, "count")], ["false", "1"]);
    const forBob = entriesOf((await chat.messages(bob, room)).xml).find((e) => numberOf(e) === n)!;
    assert.deepEqual([good(forBob, "set"), good(forBob, "count")], ["true", "1"]);
    const pushed = await chat.say(bob, room, "fresh");
    assert.deepEqual([good(pushed, "set"), good(pushed, "count")], ["false", "0"], "a push answer carries them too");
  });

  it("tells the author in the like-notification feed (cached feed included), confirms, and takes it back with the last like", async () => {
    const n = await say(alice, room, "notify me");
    const id = messageId(alice, room, n);
    const before = await likeNotifications(alice);
    assert.equal(before.status, 200);
    assert.ok(!entriesOf(before.xml).some((e) => atomText(e, "id") === id));
    await likeWrite(bob, messageId(bob, room, n));
    await likeWrite(carol, messageId(carol, room, n)).then((a) => assertError(a, 404, "NOT_FOUND"));
    const after = await likeNotifications(alice, "?unconfirmed=true");
    await assertValidAtom(after.text);
    const entry = entriesOf(after.xml).find((e) => atomText(e, "id") === id);
    assert.ok(entry, after.text);
    assert.equal(atomText(entry, "title"), "Likes");
    assert.equal(atomText(entry, "summary"), "notify me");
    assert.equal(
      entry.children.find((c) => c.local === "link")?.attributes.get("href"),
      `${server.url}/mpChat/view?chatRoomId=1%23${room}#comment-${n}`,
    );
    assert.deepEqual(
      entry.children.filter((c) => c.local === "author").map((a) => atomText(a, "name")),
      ["Bob"],
    );
    assert.equal(nsChild(entry, "cbl", "confirmed")?.text, "false");
    assert.equal(nsChild(entry, "cbl", "group"), undefined, "a room is in no group");
    assert.ok(
      !entriesOf((await likeNotifications(bob)).xml).some((e) => (atomText(e, "id") ?? "").includes("MP_CHAT")),
    );
    for (let i = 0; i < 2; i += 1) {
      const confirmed = await confirm(alice, [messageId(bob, room, n)]);
      assert.equal(confirmed.status, 200, confirmed.text);
      const entries = entriesOf(confirmed.xml);
      assert.equal(entries.length, 1, "one entry, confirmed before or not");
      assert.equal(nsChild(entries[0]!, "cbl", "confirmed")?.text, "true");
    }
    assert.ok(
      !entriesOf((await likeNotifications(alice, "?unconfirmed=true")).xml).some((e) => atomText(e, "id") === id),
    );
    await likeWrite(bob, messageId(bob, room, n), false);
    assert.ok(!entriesOf((await likeNotifications(alice)).xml).some((e) => atomText(e, "id") === id));
  });

  it("keeps one like per person, ignores likes of one's own message, and counts both kinds of like notification", async () => {
    const board = new BoardClient(server);
    const group = await server.factories.group([alice, bob], { name: "Counted" });
    const topic = await board.create(alice, group.id, "Topic");
    await board.like(bob, topic);
    const n = await say(alice, room, "twice");
    await likeWrite(bob, messageId(bob, room, n));
    await likeWrite(bob, messageId(alice, room, n));
    await likeWrite(alice, messageId(alice, room, n));
    const listed = entriesOf((await likers(alice, messageId(alice, room, n))).xml)[0]!;
    assert.equal(listed.children.filter((c) => c.local === "who").length, 2, "Bob once, Alice once");
    const feed = await likeNotifications(alice, "?unconfirmed=true");
    const ids = entriesOf(feed.xml).map((e) => atomText(e, "id"));
    assert.equal(ids[0], messageId(alice, room, n), "newest first, across both kinds");
    assert.ok(ids.includes(topic));
    assert.equal(nsChild(feed.xml, "cbl", "totalCount")?.text, String(ids.length));
    const chatEntry = entriesOf(feed.xml)[0]!;
    assert.deepEqual(
      chatEntry.children.filter((c) => c.local === "author").map((a) => atomText(a, "name")),
      ["Bob"],
      "the owner's own like is not listed",
    );
    const paged = await likeNotifications(alice, "?unconfirmed=true&start-index=1&max-results=1");
    assert.deepEqual(
      entriesOf(paged.xml).map((e) => atomText(e, "id")),
      [ids[1]],
    );
  });

  it("sends the author a likeNotification event on the live stream, the message's id from the author's side", async () => {
    const live = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${alice.token}` });
    const bobLive = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${bob.token}` });
    try {
      const n = await say(alice, room, "stream my like");
      await likeWrite(bob, messageId(bob, room, n));
      const id = messageId(alice, room, n);
      const [event] = await live.waitFor((e) => e.event === "likeNotification" && e.data.includes(`<id>${id}</id>`));
      assert.ok(event!.data.includes("<name>Bob</name>"), event!.data);
      assert.ok(event!.data.includes('<summary type="text">stream my like</summary>'), event!.data);
      const m = await say(alice, room, "marker");
      await bobLive.waitFor((e) => e.event === "chat" && e.data.includes(`COMMENT,${m}</id>`));
      assert.equal(bobLive.events.filter((e) => e.event === "likeNotification").length, 0, "the liker hears nothing");
    } finally {
      live.close();
      bobLive.close();
    }
  });

  it("refuses outsiders, unknown messages and room ids with nothing changed", async () => {
    const n = await say(alice, room, "members only");
    assertError(await likeWrite(carol, messageId(carol, room, n)), 404, "NOT_FOUND");
    assertError(await likers(carol, messageId(carol, room, n)), 404, "NOT_FOUND");
    assertError(await likeWrite(bob, messageId(bob, room, 9999)), 404, "COMMENT_NOT_FOUND");
    assertError(await likeWrite(bob, roomId(bob, room)), 400, "INVALID_ID");
    assertError(await likers(bob, roomId(bob, room)), 400, "INVALID_ID");
    assertError(await likeWrite(bob, `${roomId(bob, room)},COMMENT,0`), 400, "INVALID_ID");
    const entry = entriesOf((await chat.messages(alice, room)).xml).find((e) => numberOf(e) === n)!;
    assert.equal(good(entry, "count"), "0");
  });

  it("names a DIRECT room after the other person, in the notification and in the push and message feeds' heads", async () => {
    const direct = await chat.direct(alice, bob);
    const pushed = await chat.push(alice, direct, "hello");
    assert.equal(atomText(pushed.xml, "title"), "Bob");
    assert.equal(atomText((await chat.messages(bob, direct)).xml, "title"), "Alice");
    const n = numberOf(entriesOf(pushed.xml)[0]!);
    await likeWrite(bob, messageId(bob, direct, n));
    assert.equal(atomText(entriesOf((await likeNotifications(alice)).xml)[0]!, "title"), "Bob");
  });

  it("removes likes with their message, and a leaver's notifications with the room", async () => {
    const own = await chat.theme(alice, "Leaving", [bob]);
    const n = await say(alice, own, "gone soon");
    const m = await say(alice, own, "stays");
    await likeWrite(bob, messageId(bob, own, n));
    await likeWrite(bob, messageId(bob, own, m));
    const deleted = await chat.pushRaw(
      alice,
      `<feed ${CHAT_NS}><cbl:operation type="delete"/><entry><id>${messageId(alice, own, n)}</id></entry></feed>`,
    );
    assert.equal(deleted.status, 200, deleted.text);
    const ids = () => likeNotifications(alice).then((a) => entriesOf(a.xml).map((e) => atomText(e, "id")));
    assert.ok(!(await ids()).includes(messageId(alice, own, n)));
    assert.ok((await ids()).includes(messageId(alice, own, m)));
    const renamed = await chat.writeRoom(alice, "update", `<id>${roomId(alice, own)}</id><title>Renamed</title>`);
    assert.equal(renamed.status, 200, renamed.text);
    const feed = await likeNotifications(alice);
    const entry = entriesOf(feed.xml).find((e) => atomText(e, "id") === messageId(alice, own, m));
    assert.equal(atomText(entry!, "title"), "Renamed", "the cached feed follows a rename");
    const left = await chat.writeRoom(alice, "delete", `<id>${roomId(alice, own)}</id>`);
    assert.equal(left.status, 200, left.text);
    assert.ok(!(await ids()).includes(messageId(alice, own, m)));
    assertError(await likers(alice, messageId(alice, own, m)), 404, "NOT_FOUND");
  });

  it("tells no author who has left the room, yet counts the like", async () => {
    const own = await chat.theme(bob, "Left behind", [alice]);
    const n = await say(alice, own, "said before leaving");
    assert.equal((await chat.writeRoom(alice, "delete", `<id>${roomId(alice, own)}</id>`)).status, 200);
    assert.equal((await likeWrite(bob, messageId(bob, own, n))).status, 200);
    const entry = entriesOf((await chat.messages(bob, own)).xml).find((e) => numberOf(e) === n)!;
    assert.equal(good(entry, "count"), "1");
    const ids = entriesOf((await likeNotifications(alice)).xml).map((e) => atomText(e, "id"));
    assert.ok(!ids.includes(messageId(alice, own, n)));
  });

  it("leaves chat notifications out of /api/notification/V2 without category=M_CHAT", async () => {
    const own = await chat.theme(bob, "Unlisted", [alice]);
    await chat.say(bob, own, "ping");
    const all = await request(`${server.url}/api/notification/V2`, { token: alice.token });
    assert.equal(all.status, 200);
    assert.ok(!all.text.includes("MP_CHAT"), all.text);
    const chats = entriesOf((await chat.notifications(alice)).xml).map((e) => atomText(e, "id"));
    assert.ok(chats.includes(roomId(alice, own)));
  });
});
