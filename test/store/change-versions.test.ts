// The change versions the database keeps by itself (migration 0009, store/change-tracking.ts):
// every tracked write moves the view version of the users who can see it, and only of them; a
// write through another connection (another process, an operator's SQL) counts the same.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { type Kysely, sql } from "kysely";
import type { ContentRef } from "../../src/domain/item-id.js";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import type { Database } from "../../src/store/schema.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import type { Store, Tx } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { Factories, type TestUser } from "../support/factories.js";
import type { ViewVersion } from "../../src/store/change-tracking.js";

describeEachBackend("change versions", (backend) => {
  let opened: TestStore;
  let store: Store;
  let other: Kysely<Database>;
  let f: Factories;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let elsewhere: Group;
  let topic: Topic;
  const clock = new TestClock();

  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
    const config = opened.storeConfig;
    // A second connection: what another process or an operator's SQL client writes through.
    other = config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    f = new Factories(store, clock);
    [alice, bob, outsider] = [await f.user(), await f.user(), await f.user()];
    group = await f.group([alice, bob]);
    elsewhere = await f.group([outsider]);
    topic = await f.topic(group, alice);
  });
  after(async () => {
    await other.destroy();
    await opened.close();
  });

  const key = (version: ViewVersion) => `${version.memberVersion}/${version.groupVersions}`;
  const versions = async () => ({
    alice: await store.viewVersion(alice.id),
    bob: await store.viewVersion(bob.id),
    outsider: await store.viewVersion(outsider.id),
  });
  const ref = (t: Topic): ContentRef => ({ kind: "BOARD", groupId: t.groupId, id: t.id });

  /** Runs `write` (a transaction of its own when it takes one) and says whose version moved. */
  async function moved(
    write: ((tx: Tx) => Promise<unknown>) | { readonly outside: () => Promise<unknown> },
  ): Promise<string[]> {
    const before = await versions();
    await ("outside" in write ? write.outside() : store.transaction(write));
    const after = await versions();
    const who = (["alice", "bob", "outsider"] as const).filter((name) => key(before[name]) !== key(after[name]));
    for (const name of ["alice", "bob", "outsider"] as const) {
      assert.ok(after[name].changedAt >= before[name].changedAt, "change times never go back");
      assert.ok(
        after[name].groupVersions >= before[name].groupVersions ||
          after[name].memberVersion > before[name].memberVersion,
      );
    }
    return who;
  }

  it("moves every member's version on a write to what the group shows, and nobody else's", async () => {
    const at = clock.now();
    assert.deepEqual(
      await moved((tx) =>
        tx.topics.insert({
          groupId: group.id,
          title: "t",
          body: "",
          authorId: alice.id,
          folderId: null,
          allowEdit: false,
          fastNotify: false,
          trashed: false,
          at,
        }),
      ),
      ["alice", "bob"],
    );
    assert.deepEqual(await moved((tx) => tx.topics.update(topic.id, { title: "edited", body: "b", at })), [
      "alice",
      "bob",
    ]);
    const comment = await f.comment(topic, bob);
    assert.deepEqual(
      await moved((tx) =>
        tx.attachments.insert({
          groupId: group.id,
          commentId: comment.id,
          position: 1,
          fileName: "a.txt",
          contentType: "text/plain",
          size: 1,
          blobKey: "k",
          at,
        }),
      ),
      ["alice", "bob"],
    );
    assert.deepEqual(await moved((tx) => tx.likes.add(bob.id, { kind: "BOARD", id: topic.id }, group.id, at)), [
      "alice",
      "bob",
    ]);
    assert.deepEqual(await moved((tx) => tx.likes.remove(bob.id, { kind: "BOARD", id: topic.id })), ["alice", "bob"]);
    assert.deepEqual(await moved((tx) => tx.comments.remove(comment.id)), ["alice", "bob"]);
    assert.deepEqual(
      await moved((tx) => tx.folders.insert({ groupId: group.id, area: "BOARD", name: "f", createdAt: at })),
      ["alice", "bob"],
    );
    const task = await f.task(group, alice);
    assert.deepEqual(await moved((tx) => tx.tasks.update(task.id, { status: "COMPLETED", at })), ["alice", "bob"]);
    const version = {
      fileName: "a.txt",
      size: 1,
      mimeType: "text/plain",
      blobKey: "b1",
      width: null,
      height: null,
      thumbnailKey: null,
      authorId: alice.id,
      comment: "",
      at,
    };
    const file = await store.transaction((tx) =>
      tx.files.insert(
        { groupId: group.id, title: "", memo: "", authorId: alice.id, folderId: null, trashed: false },
        version,
      ),
    );
    assert.deepEqual(await moved((tx) => tx.files.addVersion(file.id, { ...version, blobKey: "b2" })), [
      "alice",
      "bob",
    ]);
    // A version row alone (as an operator's repair would write it) counts for its file's group.
    assert.deepEqual(
      await moved({
        outside: () => sql`update file_versions set comment = 'fixed' where file_id = ${file.id}`.execute(other),
      }),
      ["alice", "bob"],
    );
    assert.deepEqual(await moved((tx) => tx.topics.remove(topic.id)), ["alice", "bob"]);
    topic = await f.topic(group, alice);
    assert.deepEqual(await moved((tx) => tx.topics.update(topic.id, { title: "t", body: "", at })), ["alice", "bob"]);
  });

  it("moves only the caller's version for per-caller state, and not at a fan-out", async () => {
    const at = clock.now();
    const item = { kind: "BOARD" as const, id: topic.id };
    assert.deepEqual(await moved((tx) => tx.favorites.add(bob.id, item, group.id, at)), ["bob"]);
    assert.deepEqual(
      await moved((tx) => tx.favorites.add(bob.id, item, group.id, at)),
      [],
      "favoriting twice changes nothing",
    );
    assert.deepEqual(await moved((tx) => tx.favorites.remove(bob.id, item)), ["bob"]);
    assert.deepEqual(await moved((tx) => tx.commentReads.confirm(bob.id, ref(topic), at)), ["bob"]);
    // The fan-out writes a notification per member and moves nobody: it runs in the transaction
    // of an item write, which moves the group.
    assert.deepEqual(
      await moved((tx) =>
        tx.notifications.fanOut({
          item: ref(topic),
          actorId: alice.id,
          cause: { kind: "updated", bodyChanged: false },
          at,
        }),
      ),
      [],
    );
    assert.deepEqual(await moved((tx) => tx.notifications.confirm(bob.id, [ref(topic)], at)), ["bob"]);
    assert.deepEqual(
      await moved((tx) => tx.notifications.confirm(bob.id, [ref(topic)], at)),
      [],
      "confirming a confirmed one changes nothing",
    );
    assert.deepEqual(
      await moved((tx) =>
        tx.notifications.fanOut({
          item: ref(topic),
          actorId: alice.id,
          cause: { kind: "updated", bodyChanged: false },
          at,
        }),
      ),
      [],
    );
    const liked = { parent: ref(topic), commentNumber: 0 };
    assert.deepEqual(await moved((tx) => tx.likeNotifications.touch(alice.id, liked, null, at)), []);
    assert.deepEqual(await moved((tx) => tx.likeNotifications.confirm(alice.id, [liked], at)), ["alice"]);
  });

  it("moves the member's and the group's versions on join, settings and leave; a pair never comes back", async () => {
    const seen = new Set([key(await store.viewVersion(outsider.id))]);
    const at = clock.now();
    const membership = await store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: group.id,
        userId: outsider.id,
        manager: false,
        notify: true,
        createdAt: at,
      }),
    );
    seen.add(key(await store.viewVersion(outsider.id)));
    assert.deepEqual(await moved((tx) => tx.memberships.update(membership.id, { notify: false, at })), [
      "alice",
      "bob",
      "outsider",
    ]);
    seen.add(key(await store.viewVersion(outsider.id)));
    assert.deepEqual(await moved((tx) => tx.memberships.remove(membership.id)), ["alice", "bob", "outsider"]);
    seen.add(key(await store.viewVersion(outsider.id)));
    // Back in the group whose version the leave just moved: the pair is new all the same.
    await store.transaction((tx) =>
      tx.memberships.insertJoined({
        groupId: group.id,
        userId: outsider.id,
        manager: false,
        notify: true,
        createdAt: at,
      }),
    );
    seen.add(key(await store.viewVersion(outsider.id)));
    assert.equal(seen.size, 5);
    const left = await store.transaction((tx) => tx.memberships.findJoined(group.id, outsider.id));
    await store.transaction((tx) => tx.memberships.remove(left?.id ?? 0));
    assert.deepEqual(
      await moved((tx) => tx.topics.update(topic.id, { title: "in a group the outsider left", body: "", at })),
      ["alice", "bob"],
    );
    assert.deepEqual(await moved((tx) => tx.groups.insert({ name: "new", summary: "", createdAt: at })), []);
    assert.deepEqual(await moved({ outside: () => f.topic(elsewhere, outsider) }), ["outsider"]);
  });

  it("moves everybody's version when a name, e-mail or reading changes, through any connection", async () => {
    assert.deepEqual(
      await moved({ outside: () => sql`update users set name = 'Renamed' where id = ${outsider.id}`.execute(other) }),
      ["alice", "bob", "outsider"],
    );
    assert.deepEqual(
      await moved({ outside: () => sql`update users set family_kana = 'カナ' where id = ${bob.id}`.execute(other) }),
      ["alice", "bob", "outsider"],
    );
    assert.deepEqual(
      await moved({ outside: () => sql`update users set name = 'Renamed' where id = ${outsider.id}`.execute(other) }),
      [],
      "the same name again",
    );
    assert.deepEqual(
      await moved({ outside: () => sql`update users set password_hash = 'x' where id = ${alice.id}`.execute(other) }),
      [],
      "feeds show no password",
    );
  });

  it("reads the change time by the database's clock, never behind it", async () => {
    const version = await store.viewVersion(alice.id);
    assert.ok(Math.abs(version.now - Date.now()) < 60_000, "the database's clock, not the test's");
    assert.ok(version.changedAt <= version.now);
    await f.topic(group, bob);
    const later = await store.viewVersion(alice.id);
    assert.ok(later.changedAt >= version.changedAt && later.changedAt <= later.now);
  });

  it("counts a user without any change of their own as member version 0", async () => {
    const newcomer = await f.user();
    const version = await store.viewVersion(newcomer.id);
    assert.equal(version.memberVersion, 0);
    assert.ok(version.groupVersions >= 1, "the directory row counts for everyone");
  });
});
