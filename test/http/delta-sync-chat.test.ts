// Delta sync (docs/api.md "Delta sync") of a chat room's messages (`/api/comment/V2?entry=<room>`):
// a room's own scope, followed by the mirror client of test/support/mirror.ts.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import type { Actor } from "../../src/domain/access.js";
import { TOMBSTONE_KEEP_DAYS, formatCursor, roomScopeOwner } from "../../src/domain/changes.js";
import { writeRoom } from "../../src/services/chat/chat.js";
import { deleteMessage, editMessage, pushMessage } from "../../src/services/chat/chat-message.js";
import { pruneTombstones } from "../../src/services/item/changes.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { ChatClient, roomId } from "../support/chat.js";
import { Mirror, fullRead, nextChanges } from "../support/mirror.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("delta sync: chat messages", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let room: number;
  let url: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const say = async (user: TestUser, text: string) =>
    (await pushMessage(server, actorOf(user), { roomId: room, text })).message.number;
  const summary = (entry: XmlElement) => atomText(entry, "summary") ?? "";
  const cursorOf = (href: string) => new URL(href).searchParams.get("changes-since") ?? "";

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    await server.factories.group([alice, bob, carol], { name: "Team" });
    room = await new ChatClient(server).theme(alice, "Talk", [bob]);
    url = `${server.url}/api/comment/V2?entry=${encodeURIComponent(roomId(bob, room))}`;
  });
  after(() => server.close());

  it("follows new, edited and deleted messages, paged, to the server's view", async () => {
    const first = await say(alice, "first");
    const gone = await say(bob, "to delete");
    const mirror = new Mirror(bob.token, 3, summary);
    await mirror.start(url);
    assert.equal(mirror.items.size, 2);

    await editMessage(server, actorOf(alice), { roomId: room, number: first, text: "first, edited" });
    await deleteMessage(server, actorOf(bob), { roomId: room, number: gone });
    const brief = await say(bob, "brief");
    await deleteMessage(server, actorOf(bob), { roomId: room, number: brief });
    for (let i = 0; i < 4; i++) await say(i % 2 === 0 ? alice : bob, `more ${i}`);
    assert.ok((await mirror.sync()) >= 3, "more changes than max-results take several pages");
    const view = await fullRead(url, bob.token, summary);
    assert.deepEqual(mirror.items, view);
    assert.deepEqual([...view.values()].sort(), ["first, edited", "more 0", "more 1", "more 2", "more 3"]);
    assert.equal(
      [...view.keys()].every((id) => id.startsWith(`${roomId(bob, room)},COMMENT,`)),
      true,
    );
  });

  it("answers the errors of the other feeds, and 404 to whoever is not in the room", async () => {
    const plain = await request(url, { token: bob.token });
    const cursor = cursorOf(nextChanges(plain.xml));
    assertError(await request(`${url}&changes-since=nonsense`, { token: bob.token }), 400, "CHANGES_CURSOR_INVALID");
    assertError(
      await request(`${url}&changes-since=${cursor}&start-index=1`, { token: bob.token }),
      400,
      "CHANGES_WITH_START_INDEX",
    );
    const other = await new ChatClient(server).theme(alice, "Other", [bob]);
    const otherUrl = `${server.url}/api/comment/V2?entry=${encodeURIComponent(roomId(bob, other))}`;
    assertError(
      await request(`${otherUrl}&changes-since=${cursor}`, { token: bob.token }),
      400,
      "CHANGES_CURSOR_OTHER_FEED",
    );
    // Carol shares the group but is not in the room: a cursor shows her nothing of it.
    const carolUrl = `${server.url}/api/comment/V2?entry=${encodeURIComponent(roomId(carol, room))}`;
    assertError(await request(`${carolUrl}&changes-since=${cursor}`, { token: carol.token }), 404, "NOT_FOUND");
    const forged = formatCursor({ kind: "MP_CHAT_COMMENT", groupId: roomScopeOwner(room), parentId: room, seq: 0 });
    assertError(await request(`${carolUrl}&changes-since=${forged}`, { token: carol.token }), 404, "NOT_FOUND");
  });

  it("answers 410 once a deletion after the cursor was pruned", async () => {
    const old = nextChanges((await request(url, { token: bob.token })).xml);
    await deleteMessage(server, actorOf(alice), { roomId: room, number: await say(alice, "doomed") });
    const day = 86_400_000;
    const at = (days: number) => ({ store: server.store, clock: { now: () => Date.now() + days * day } });
    assert.ok((await pruneTombstones(at(TOMBSTONE_KEEP_DAYS + 1))) >= 1);
    assertError(await request(old, { token: bob.token }), 410, "CHANGES_CURSOR_EXPIRED");
    const mirror = new Mirror(bob.token, 3, summary);
    await mirror.start(url);
    await say(alice, "after the prune");
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token, summary));
  });

  it(
    "numbers a message committed late above one committed meanwhile (the commit order of PostgreSQL)",
    { skip: backend === "sqlite" ? "SQLite runs one write transaction at a time" : false },
    async () => {
      const early = await say(alice, "early");
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      // The slow transaction edits first and commits last; the push meanwhile waits for the room.
      const slow = server.store.transaction(async (tx) => {
        await tx.chat.editMessage(room, early, "slow", server.clock.now());
        wrote();
        await gate;
      });
      await written;
      const fast = say(bob, "fast");
      release();
      await slow;
      const late = await fast;
      const changes = await server.store.read((tx) =>
        tx.itemChanges.after({ groupId: roomScopeOwner(room), kind: "MP_CHAT_COMMENT", parentId: room }, 0, 1000),
      );
      const seqOf = (number: number) => changes.find((change) => change.itemId === number)?.seq ?? 0;
      assert.ok(seqOf(late) > seqOf(early), "the push committed after the edit is numbered after it");
    },
  );

  it("empties the mirror of a member who left the room, then answers 404", async () => {
    const mirror = new Mirror(bob.token, 2, summary);
    await mirror.start(url);
    assert.ok(mirror.items.size > 2);
    await writeRoom(server, actorOf(bob), { op: "leave", roomId: room });
    await say(alice, "after bob left");
    const departed = await request(mirror.next, { token: bob.token });
    assert.equal(departed.status, 200, departed.text);
    assert.equal(atomText(departed.xml, "title"), "", "no title of a room bob left");
    assert.doesNotMatch(departed.text, /after bob left|<entry/);
    await mirror.sync().catch(() => undefined);
    assert.deepEqual(mirror.items, new Map(), "every message bob saw is gone from his mirror");
    const last = await request(mirror.next, { token: bob.token });
    assertError(last, 404, "NOT_FOUND");
  });
});
