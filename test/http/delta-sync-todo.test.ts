// Delta sync (docs/api.md "Delta sync") of the ToDo list: a person's own scope (their personal
// tasks and the group tasks assigned to them), followed by the mirror client of test/support/mirror.ts.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Actor } from "../../src/domain/access.js";
import { TOMBSTONE_KEEP_DAYS, formatCursor } from "../../src/domain/changes.js";
import type { Group } from "../../src/domain/group.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { pruneTombstones } from "../../src/services/item/changes.js";
import type { NewPersonalTask } from "../../src/store/queries/personal-tasks.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { Mirror, fullRead, nextChanges } from "../support/mirror.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("delta sync: the ToDo list (a person's scope)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let url: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const own = (owner: TestUser, title: string): NewPersonalTask => ({
    ownerId: owner.id,
    title,
    body: "",
    dueAt: null,
    allDay: false,
    priority: "B",
    status: "NOT_STARTED",
    at: server.clock.now(),
  });
  const personal = (owner: TestUser, title: string) =>
    server.store.transaction((tx) => tx.personalTasks.insert(own(owner, title)));

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    url = `${server.url}/api/task/V2?status=NOT_COMPLETED`;
  });
  after(() => server.close());

  it("follows personal and assigned tasks through creations, edits, reassignment, trash, deletes, paged", async () => {
    const mine = await personal(bob, "mine");
    const assigned = await server.factories.task(group, alice, { title: "assigned", assigneeId: bob.id });
    const reassigned = await server.factories.task(group, alice, { title: "reassigned", assigneeId: bob.id });
    const trashed = await server.factories.task(group, alice, { title: "trashed", assigneeId: bob.id });
    await server.factories.task(group, alice, { title: "alice's own", assigneeId: alice.id });
    await personal(alice, "alice's personal");
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 4);

    const at = server.clock.now();
    await server.store.transaction(async (tx) => {
      await tx.personalTasks.update(mine.id, { title: "mine, edited", at });
      await tx.tasks.update(assigned.id, { title: "assigned, edited", at });
      await tx.tasks.update(reassigned.id, { assigneeId: alice.id, at });
      await tx.tasks.update(trashed.id, { trashed: true, at });
    });
    const gone = await personal(bob, "to delete");
    await server.store.transaction((tx) => tx.personalTasks.remove(gone.id));
    const done = await personal(bob, "to complete");
    await server.store.transaction((tx) => tx.personalTasks.update(done.id, { status: "COMPLETED", at }));
    for (let i = 0; i < 3; i++) await personal(bob, `more ${i}`);
    await server.factories.task(group, alice, { title: "newly assigned", assigneeId: bob.id });
    assert.ok((await mirror.sync()) >= 3, "paged");
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.deepEqual([...view.values()].sort(), [
      "assigned, edited",
      "mine, edited",
      "more 0",
      "more 1",
      "more 2",
      "newly assigned",
    ]);
  });

  it("answers 400 for a cursor of another person's ToDo list", async () => {
    const plain = await request(url, { token: bob.token });
    const cursor = new URL(nextChanges(plain.xml)).searchParams.get("changes-since") ?? "";
    assertError(
      await request(`${url}&changes-since=${cursor}`, { token: alice.token }),
      400,
      "CHANGES_CURSOR_OTHER_FEED",
    );
    const forged = formatCursor({ kind: "TODO", groupId: -bob.id, parentId: 0, seq: 0 });
    const answer = await request(`${url}&changes-since=${forged}`, { token: alice.token });
    assertError(answer, 400, "CHANGES_CURSOR_OTHER_FEED");
  });

  it("answers 410 once a personal tombstone after the cursor was pruned", async () => {
    const old = nextChanges((await request(url, { token: bob.token })).xml);
    const doomed = await personal(bob, "doomed");
    await server.store.transaction((tx) => tx.personalTasks.remove(doomed.id));
    const day = 86_400_000;
    const at = (days: number) => ({ store: server.store, clock: { now: () => Date.now() + days * day } });
    assert.ok((await pruneTombstones(at(TOMBSTONE_KEEP_DAYS + 1))) >= 1);
    assertError(await request(old, { token: bob.token }), 410, "CHANGES_CURSOR_EXPIRED");
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
  });

  it("drops the assigned tasks of a group the person left, keeps their own, and brings them back on return", async () => {
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(url);
    const groupOnly = new Mirror(bob.token);
    await groupOnly.start(`${url}&group=1:${group.id}`);
    assert.equal(groupOnly.items.size, 2);
    await leaveGroup(server, actorOf(bob), { groupId: group.id });
    await mirror.sync();
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.deepEqual([...view.values()].sort(), ["mine, edited", "more 0", "more 1", "more 2"]);
    await groupOnly.sync();
    assert.deepEqual(groupOnly.items, new Map(), "the group's list empties too");

    await server.store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: group.id,
        userId: bob.id,
        manager: false,
        notify: true,
        createdAt: server.clock.now(),
      }),
    );
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
    assert.equal(mirror.items.size, 6);
  });

  it(
    "numbers a person's change committed late above one committed meanwhile (the commit order of PostgreSQL)",
    { skip: backend === "sqlite" ? "SQLite runs one write transaction at a time" : false },
    async () => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      // The slow transaction edits (a new task's per-owner number would wait for it) and commits last.
      const early = await personal(bob, "early");
      const slow = server.store.transaction(async (tx) => {
        await tx.personalTasks.update(early.id, { title: "slow", at: server.clock.now() });
        wrote();
        await gate;
        return early;
      });
      await written;
      const fast = await personal(bob, "fast");
      const assignedFast = await server.factories.task(group, alice, { title: "fast too", assigneeId: bob.id });
      release();
      const late = await slow;
      const changes = await server.store.read((tx) =>
        tx.itemChanges.after({ groupId: -bob.id, kind: "TODO", parentId: 0, kinds: ["TODO", "TODO_TASK"] }, 0, 1000),
      );
      const seqOf = (kind: string, id: number) =>
        changes.find((change) => change.kind === kind && change.itemId === id)?.seq ?? 0;
      assert.ok(seqOf("TODO", late.id) > seqOf("TODO", fast.id), "late after fast");
      assert.ok(seqOf("TODO", late.id) > seqOf("TODO_TASK", assignedFast.id), "late after the assigned task");
    },
  );
});
