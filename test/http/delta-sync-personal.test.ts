// Delta sync (docs/api.md "Delta sync") of the favorites list: a person's own scope, followed by
// the mirror client of test/support/mirror.ts through adds, removes, edits, deletes and a departure.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import { TOMBSTONE_KEEP_DAYS, formatCursor } from "../../src/domain/changes.js";
import type { Group } from "../../src/domain/group.js";
import type { ItemKey } from "../../src/domain/reaction.js";
import { deleteComment } from "../../src/services/comment/comment.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { pruneTombstones } from "../../src/services/item/changes.js";
import { deleteTopic } from "../../src/services/topic/topic.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { Mirror, fullRead, nextChanges } from "../support/mirror.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("delta sync: favorites (a person's scope)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let other: Group;
  let url: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const star = (user: TestUser, key: ItemKey, groupId: number) =>
    server.store.transaction((tx) => tx.favorites.add(user.id, key, groupId, server.clock.now()));
  const unstar = (user: TestUser, key: ItemKey) => server.store.transaction((tx) => tx.favorites.remove(user.id, key));
  const topic = async (in_: Group, title: string, user: TestUser = bob) => {
    const made = await server.factories.topic(in_, alice, { title });
    await star(user, { kind: "BOARD", id: made.id }, in_.id);
    return made;
  };

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    other = await server.factories.group([alice, bob], { managers: [alice] });
    url = `${server.url}/api/star/V2?max-results=20`;
  });
  after(() => server.close());

  it("follows adds, removes, edits, trash and deletes of items and comments, paged", async () => {
    const edited = await topic(group, "edited");
    const trashed = await topic(group, "trashed");
    const removed = await topic(group, "unstarred");
    const deleted = await topic(group, "deleted");
    const task = await server.factories.task(group, alice, { title: "task" });
    await star(bob, { kind: "TASK", id: task.id }, group.id);
    const gone = await server.factories.comment(edited, alice, { body: "comment to delete" });
    const kept = await server.factories.comment(edited, alice, { body: "comment to unstar" });
    for (const comment of [gone, kept]) await star(bob, { kind: "COMMENT", id: comment.id }, group.id);
    await topic(group, "alice's own", alice);
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 7);

    const at = server.clock.now();
    await server.store.transaction(async (tx) => {
      await tx.topics.update(edited.id, { title: "edited, again", body: "", at });
      await tx.topics.place(trashed.id, { trashed: true, at });
    });
    await unstar(bob, { kind: "BOARD", id: removed.id });
    await unstar(bob, { kind: "COMMENT", id: kept.id });
    await deleteComment(server, actorOf(alice), { parent: gone.parent, number: gone.number });
    await deleteTopic(server, actorOf(alice), { ref: { kind: "BOARD", groupId: group.id, id: deleted.id } });
    for (let i = 0; i < 3; i++) await topic(group, `more ${i}`);
    assert.ok((await mirror.sync()) >= 3, "paged");
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.deepEqual([...view.values()].sort(), ["edited, again", "more 0", "more 1", "more 2", "task", "trashed"]);
  });

  it("drops the favorites of a group the person left and brings them back on return", async () => {
    await topic(other, "in the other group");
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(url);
    assert.equal(mirror.items.size, 7);
    await leaveGroup(server, actorOf(bob), { groupId: other.id });
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.equal(mirror.items.size, 6);
    await server.store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: other.id,
        userId: bob.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      }),
    );
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.equal(mirror.items.size, 7);
  });

  it("answers the cursor errors of the other feeds", async () => {
    const link = nextChanges((await request(url, { token: bob.token })).xml);
    const cursor = new URL(link).searchParams.get("changes-since") ?? "";
    assert.equal(new URL(link).searchParams.get("max-results"), "20", "the read's parameters stay");
    assertError(
      await request(`${url}&changes-since=${cursor}`, { token: alice.token }),
      400,
      "CHANGES_CURSOR_OTHER_FEED",
    );
    const todo = formatCursor({ kind: "TODO", groupId: -bob.id, parentId: 0, seq: 0 });
    assertError(await request(`${url}&changes-since=${todo}`, { token: bob.token }), 400, "CHANGES_CURSOR_OTHER_FEED");
    assertError(await request(`${url}&changes-since=nonsense`, { token: bob.token }), 400, "CHANGES_CURSOR_INVALID");
    assertError(await request(`${link}&start-index=2`, { token: bob.token }), 400, "CHANGES_WITH_START_INDEX");
    const one = `${server.url}/api/star/V2?id=GROUP,1:${group.id},BOARD,1:1&changes-since=${cursor}`;
    assertError(await request(one, { token: bob.token }), 400, "CHANGES_NOT_SUPPORTED");
    // Likes: one item's entry, not a list.
    const likes = `${server.url}/api/good/V2?id=GROUP,1:${group.id},BOARD,1:1&changes-since=${cursor}`;
    assertError(await request(likes, { token: bob.token }), 400, "CHANGES_NOT_SUPPORTED");
  });

  it(
    "numbers a favorite renumbered by a late item edit above one added meanwhile (the commit order of PostgreSQL)",
    { skip: backend === "sqlite" ? "SQLite runs one write transaction at a time" : false },
    async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const early = await topic(group, "early");
      // The slow transaction edits the favorited topic (alice's write, bob's favorite) and commits last.
      const slow = server.store.transaction(async (tx) => {
        await tx.topics.update(early.id, { title: "slow", body: "", at: server.clock.now() });
        wrote();
        await gate;
      });
      await written;
      const fast = await topic(other, "fast");
      release();
      await slow;
      const changes = await server.store.read((tx) =>
        tx.itemChanges.after({ groupId: -bob.id, kind: "STAR", parentId: 0, kinds: ["STAR_BOARD"] }, 0, 1000),
      );
      const seqOf = (id: number) => changes.find((change) => change.itemId === id)?.seq ?? 0;
      assert.ok(seqOf(early.id) > seqOf(fast.id), "late after fast");
    },
  );

  it("answers 410 once a favorite's tombstone after the cursor was pruned", async () => {
    const old = nextChanges((await request(url, { token: bob.token })).xml);
    const doomed = await topic(group, "doomed");
    await unstar(bob, { kind: "BOARD", id: doomed.id });
    const day = 86_400_000;
    const later = { store: server.store, clock: { now: () => Date.now() + (TOMBSTONE_KEEP_DAYS + 1) * day } };
    assert.ok((await pruneTombstones(later)) >= 1);
    assertError(await request(old, { token: bob.token }), 410, "CHANGES_CURSOR_EXPIRED");
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
  });
});
