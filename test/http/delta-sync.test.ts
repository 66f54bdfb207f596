import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { NS } from "../../src/atom/namespaces.js";
import { children } from "../../src/atom/parse.js";
import type { Actor } from "../../src/domain/access.js";
import { TOMBSTONE_KEEP_DAYS, formatCursor, parseCursor } from "../../src/domain/changes.js";
import { pruneTombstones } from "../../src/services/item/changes.js";
import type { Group } from "../../src/domain/group.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { placeTopic } from "../../src/services/topic/topic-web.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { Mirror, fullRead, idOf, nextChanges } from "../support/mirror.js";
import { describeEachBackend } from "../support/backends.js";
import { addTestFile, addTestVersion } from "../support/files.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("delta sync: changes-since with tombstones (board)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: Group;
  let boardUrl: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const topicId = (id: number) => `GROUP,1:${group.id},BOARD,1:${id}`;
  const post = (body: string, token = alice.token) =>
    request(`${server.url}/api/board/V2`, { token, body: `<feed ${CLIENT_NS}>${body}</feed>` });

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    boardUrl = `${server.url}/api/board/V2?group=1:${group.id}`;
  });
  after(() => server.close());

  it("keeps a mirror equal to the server through creations, edits, trash, deletes and paging", async () => {
    const first = await server.factories.topic(group, alice, { title: "first" });
    const second = await server.factories.topic(group, bob, { title: "second" });
    const mirror = new Mirror(bob.token);
    await mirror.start(boardUrl);
    assert.deepEqual(mirror.items, await fullRead(boardUrl, bob.token));

    const created = await post(
      `<entry><title>by api</title><summary>x</summary><cbl:group id="1:${group.id}"/></entry>`,
    );
    assert.equal(created.status, 200, created.text);
    const apiId = idOf(children(created.xml, NS.atom, "entry")[0]!);
    const edited = await post(
      `<cbl:operation type="update"/><entry><id>${topicId(first.id)}</id><title>first, edited</title></entry>`,
    );
    assert.equal(edited.status, 200, edited.text);
    await placeTopic(server, actorOf(bob), {
      ref: { kind: "BOARD", groupId: group.id, id: second.id },
      place: { kind: "trash" },
    });
    const deleted = await post(`<cbl:operation type="delete"/><entry><id>${apiId}</id></entry>`);
    assert.equal(deleted.status, 200, deleted.text);
    for (let i = 0; i < 7; i++) await server.factories.topic(group, alice, { title: `many ${i}` });

    const pages = await mirror.sync();
    assert.ok(pages >= 4, `more changes than max-results take several pages (${pages})`);
    const server1 = await fullRead(boardUrl, bob.token);
    assert.deepEqual(mirror.items, server1);
    assert.equal(server1.get(topicId(first.id)), "first, edited");
    assert.equal(server1.has(topicId(second.id)), false, "the trashed topic is gone from the list");

    // Restored from the trash: it comes back as an entry.
    await placeTopic(server, actorOf(bob), {
      ref: { kind: "BOARD", groupId: group.id, id: second.id },
      place: { kind: "restore" },
    });
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(boardUrl, bob.token));
    assert.equal(mirror.items.has(topicId(second.id)), true);
  });

  it("sends a tombstone for a topic moved out of the folder filter", async () => {
    const folderId = await server.factories.boardFolder(group, "Filed");
    const filed = await server.factories.topic(group, alice, { title: "filed", folderId });
    const url = `${boardUrl}&board-folder=1:${folderId}`;
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.has(topicId(filed.id)), true);
    await placeTopic(server, actorOf(alice), {
      ref: { kind: "BOARD", groupId: group.id, id: filed.id },
      place: { kind: "unclassified" },
    });
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.equal(mirror.items.has(topicId(filed.id)), false);
  });

  it("answers 400 for a bad cursor and for another feed's, with a clear error", async () => {
    for (const bad of ["", "x", "!!!", "Yz", formatCursor({ kind: "BOARD", groupId: 1, parentId: 0, seq: 1 }) + "@"]) {
      const answer = await request(`${boardUrl}&changes-since=${encodeURIComponent(bad)}`, { token: bob.token });
      assertError(answer, 400, "CHANGES_CURSOR_INVALID");
    }
    const other = formatCursor({ kind: "TASK", groupId: group.id, parentId: 0, seq: 0 });
    assertError(
      await request(`${boardUrl}&changes-since=${other}`, { token: bob.token }),
      400,
      "CHANGES_CURSOR_OTHER_FEED",
    );
    const plain = await request(boardUrl, { token: bob.token });
    const cursor = new URL(nextChanges(plain.xml)).searchParams.get("changes-since") ?? "";
    assertError(
      await request(`${boardUrl}&changes-since=${cursor}&start-index=2`, { token: bob.token }),
      400,
      "CHANGES_WITH_START_INDEX",
    );
  });

  it("never shows a stranger anything of the group, whatever cursor they send", async () => {
    const plain = await request(boardUrl, { token: bob.token });
    const cursor = new URL(nextChanges(plain.xml)).searchParams.get("changes-since") ?? "";
    assertError(await request(`${boardUrl}&changes-since=${cursor}`, { token: carol.token }), 403, "GROUP_NOT_JOINED");
    const forged = formatCursor({ kind: "BOARD", groupId: group.id, parentId: 0, seq: 0 });
    const answer = await request(`${boardUrl}&changes-since=${forged}`, { token: carol.token });
    assertError(answer, 403, "GROUP_NOT_JOINED");
    assert.doesNotMatch(answer.text, /BOARD,1:/);
  });

  it("answers 410 CHANGES_CURSOR_EXPIRED once tombstones after the cursor were pruned", async () => {
    const plain = await request(boardUrl, { token: bob.token });
    const old = nextChanges(plain.xml);
    const doomed = await server.factories.topic(group, alice, { title: "doomed" });
    await server.store.transaction((tx) => tx.topics.remove(doomed.id));
    // Kept for TOMBSTONE_KEEP_DAYS by the database's clock (which stamps them), then pruned by the hourly pass.
    const day = 86_400_000;
    const at = (days: number) => ({ store: server.store, clock: { now: () => Date.now() + days * day } });
    assert.equal(await pruneTombstones(at(TOMBSTONE_KEEP_DAYS - 1)), 0, "kept within the period");
    const kept = await request(old, { token: bob.token });
    assert.equal(kept.status, 200, kept.text);
    assert.match(kept.text, /at:deleted-entry/);
    assert.ok((await pruneTombstones(at(TOMBSTONE_KEEP_DAYS + 1))) >= 1, "the tombstone was pruned");
    const answer = await request(old, { token: bob.token });
    assertError(answer, 410, "CHANGES_CURSOR_EXPIRED");
    assert.match(answer.text, /read the whole feed again/);
    // Starting over works: a plain read's cursor is past the pruned tombstones.
    const mirror = new Mirror(bob.token);
    await mirror.start(boardUrl);
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(boardUrl, bob.token));
  });

  it("empties a mirror of a member who left the group, then answers 403", async () => {
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(boardUrl);
    assert.ok(mirror.items.size > 2, "bob holds several topics");
    const before = mirror.next;
    await leaveGroup(server, actorOf(bob), { groupId: group.id });
    const later = await server.factories.topic(group, alice, { title: "after bob left" });
    await mirror.sync().catch(() => undefined);
    assert.deepEqual(mirror.items, new Map(), "every topic bob held is gone from his mirror");
    // The server's view for bob now: nothing (403), and so is the cursor the tombstones ended with.
    assertError(await request(boardUrl, { token: bob.token }), 403, "GROUP_NOT_JOINED");
    assertError(await request(mirror.next, { token: bob.token }), 403, "GROUP_NOT_JOINED");
    // The tombstones name only what bob could read: not the topic written as he left.
    const again = await request(before, { token: bob.token });
    assert.equal(again.status, 200, again.text);
    assert.ok(again.text.includes("at:deleted-entry"), again.text);
    assert.equal(again.text.includes(group.name), false, "no name of the group he left");
    assert.equal(again.text.includes(topicId(later.id)), false, "no tombstone of a topic written after he left");
    assert.equal(parseCursor(new URL(before).searchParams.get("changes-since") ?? "").kind, "BOARD");
  });
});

describeEachBackend("delta sync: tasks, shared files and comments", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
  });
  after(() => server.close());

  it("follows a task list through creations, edits, completion out of the filter, trash and deletes", async () => {
    const url = `${server.url}/api/gwTask/V2?group=1:${group.id}&status=NOT_COMPLETED`;
    const kept = await server.factories.task(group, alice, { title: "kept" });
    const done = await server.factories.task(group, alice, { title: "to complete" });
    const trashed = await server.factories.task(group, alice, { title: "to trash" });
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 3);
    const at = server.clock.now();
    await server.store.transaction(async (tx) => {
      await tx.tasks.update(kept.id, { title: "kept, edited", at });
      await tx.tasks.update(done.id, { status: "COMPLETED", at });
      await tx.tasks.update(trashed.id, { trashed: true, at });
    });
    const gone = await server.factories.task(group, bob, { title: "to delete" });
    await server.store.transaction((tx) => tx.tasks.remove(gone.id));
    for (let i = 0; i < 4; i++) await server.factories.task(group, bob, { title: `more ${i}` });
    assert.ok((await mirror.sync()) >= 3, "paged");
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.equal(view.size, 5);
  });

  it("follows the shared files through uploads, new versions, moves to the trash and deletes", async () => {
    const url = `${server.url}/api/gwCabinet/V2?group=1:${group.id}`;
    const first = await addTestFile(server, group, alice, { title: "first" });
    const second = await addTestFile(server, group, alice, { title: "second" });
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(url);
    await addTestVersion(server, first, alice, Buffer.from("version 2"));
    const at = server.clock.now();
    await server.store.transaction((tx) => tx.files.update(second.id, { trashed: true, at }));
    const third = await addTestFile(server, group, bob, { title: "third" });
    await server.store.transaction((tx) => tx.files.remove(third.id));
    await addTestFile(server, group, bob, { title: "fourth" });
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.deepEqual([...mirror.items.values()].sort(), ["first", "fourth"]);
    // The ATTACH folder lists comment attachments: it has no changes to follow.
    const attach = await request(
      `${url}&cabinet-folder=ATTACH&changes-since=${new URL(mirror.next).searchParams.get("changes-since")}`,
      {
        token: bob.token,
      },
    );
    assertError(attach, 400, "CHANGES_NOT_SUPPORTED");
  });

  it("follows a topic's comments through new, edited and deleted comments; a cursor stays with its item", async () => {
    const topic = await server.factories.topic(group, alice, { title: "discussed" });
    const other = await server.factories.topic(group, alice, { title: "elsewhere" });
    const url = `${server.url}/api/comment/V2?entry=GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const first = await server.factories.comment(topic, alice, { body: "one" });
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 1);
    const second = await server.factories.comment(topic, bob, { body: "two" });
    await server.factories.comment(other, bob, { body: "not here" });
    await server.store.transaction((tx) => tx.comments.updateBody(first.id, "one, edited", server.clock.now()));
    await server.store.transaction((tx) => tx.comments.remove(second.id));
    for (let i = 0; i < 4; i++) await server.factories.comment(topic, alice, { body: `more ${i}` });
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.equal(mirror.items.size, 5);
    const cursor = new URL(mirror.next).searchParams.get("changes-since") ?? "";
    const elsewhere = `${server.url}/api/comment/V2?entry=GROUP,1:${group.id},BOARD,1:${other.id}&changes-since=${cursor}`;
    assertError(await request(elsewhere, { token: bob.token }), 400, "CHANGES_CURSOR_OTHER_FEED");
    assertError(
      await request(`${url}&unconfirmed=true&changes-since=${cursor}`, { token: bob.token }),
      400,
      "CHANGES_NOT_SUPPORTED",
    );
  });

  it(
    "numbers a change committed late above one committed meanwhile (the commit order of PostgreSQL)",
    { skip: backend === "sqlite" ? "SQLite runs one write transaction at a time" : false },
    async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const topic = (title: string) => ({
        groupId: group.id,
        title,
        body: "",
        authorId: alice.id,
        folderId: null,
        allowEdit: false,
        fastNotify: false,
        trashed: false,
        at: server.clock.now(),
      });
      // The slow transaction writes first and commits last.
      const slow = server.store.transaction(async (tx) => {
        const written = await tx.topics.insert(topic("slow"));
        wrote();
        await gate;
        return written;
      });
      await written;
      const fast = await server.factories.topic(group, alice, { title: "fast" });
      release();
      const late = await slow;
      const changes = await server.store.read((tx) =>
        tx.itemChanges.after({ groupId: group.id, kind: "BOARD", parentId: 0 }, 0, 1000),
      );
      const seqOf = (id: number) => changes.find((change) => change.itemId === id)?.seq ?? 0;
      assert.ok(seqOf(late.id) > seqOf(fast.id), `late ${seqOf(late.id)} after fast ${seqOf(fast.id)}`);
    },
  );

  it("answers a changes-since read from the feed cache only while nothing changed", async () => {
    const url = `${server.url}/api/board/V2?group=1:${group.id}`;
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    const next = mirror.next;
    const first = await request(next, { token: bob.token });
    const etag = first.headers.get("etag") ?? "";
    assert.notEqual(etag, "");
    const unchanged = await request(next, { token: bob.token, headers: { "if-none-match": etag } });
    assert.equal(unchanged.status, 304);
    await server.factories.topic(group, alice, { title: "news" });
    const changed = await request(next, { token: bob.token, headers: { "if-none-match": etag } });
    assert.equal(changed.status, 200);
    assert.match(changed.text, /news/);
    void actorOf;
  });
});
