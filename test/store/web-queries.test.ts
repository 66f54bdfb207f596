import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Store, Tx } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

// The queries the web interface added to the Store, on every backend: sessions, a user's tokens
// by origin, likers of many items at once, a user's memberships, the task state filter.

const T0 = 1_700_000_000_000;

async function seedUser(tx: Tx, n: string) {
  const user = await tx.users.insert({
    name: `U${n}`,
    email: `w${n}@example.com`,
    familyKana: "",
    givenKana: "",
    passwordHash: "h",
    createdAt: T0,
  });
  const app = await tx.apps.insert({
    name: `A${n}`,
    consumerKey: `wkey-${n}`,
    consumerSecret: "s",
    accessLevel: "write",
    createdAt: T0,
  });
  return { user, app };
}

describeEachBackend("Store: web interface queries", (backend) => {
  let opened: TestStore;
  let store: Store;
  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
  });
  after(() => opened.close());

  it("sessions: found by hash until they expire, extended, removed, swept", async () => {
    const { user } = await store.transaction((tx) => seedUser(tx, "1"));
    await store.transaction((tx) =>
      tx.sessions.insert({ tokenHash: "sh-1", userId: user.id, csrf: "c1", createdAt: T0, expiresAt: T0 + 1000 }),
    );
    await store.transaction((tx) =>
      tx.sessions.insert({ tokenHash: "sh-2", userId: user.id, csrf: "c2", createdAt: T0, expiresAt: T0 + 10 }),
    );
    const found = await store.read((tx) => tx.sessions.findLive("sh-1", T0 + 999));
    assert.equal(found?.user.email, "w1@example.com");
    assert.equal(found?.csrf, "c1");
    assert.equal(found?.expiresAt, T0 + 1000);
    assert.equal(
      await store.read((tx) => tx.sessions.findLive("sh-1", T0 + 1000)),
      undefined,
      "an expired session is not found",
    );
    await store.transaction((tx) => tx.sessions.extend(found!.id, T0 + 5000));
    assert.equal((await store.read((tx) => tx.sessions.findLive("sh-1", T0 + 4999)))?.expiresAt, T0 + 5000);
    assert.equal(await store.transaction((tx) => tx.sessions.removeExpired(T0 + 10)), 1, "only the expired one goes");
    await store.transaction((tx) => tx.sessions.remove("sh-1"));
    assert.equal(await store.read((tx) => tx.sessions.findLive("sh-1", T0)), undefined);
    await assert.rejects(
      store.transaction((tx) =>
        tx.sessions.insert({ tokenHash: "sh-3", userId: 999_999, csrf: "c", createdAt: T0, expiresAt: T0 + 1 }),
      ),
      "a session needs its user",
    );
  });

  it("tokens of one user by origin: listed live, revoked one by one or per application, never another user's", async () => {
    const { user, app } = await store.transaction((tx) => seedUser(tx, "2"));
    const { user: other } = await store.transaction((tx) => seedUser(tx, "3"));
    const insert = (userId: number, hash: string, origin?: "personal" | "oauth") =>
      store.transaction((tx) =>
        tx.tokens.insert({
          userId,
          appId: app.id,
          tokenHash: hash,
          secret: "s",
          label: hash,
          ...(origin ? { origin } : {}),
          createdAt: T0,
        }),
      );
    const personal = await insert(user.id, "p1");
    const oauthA = await insert(user.id, "o1", "oauth");
    await insert(user.id, "o2", "oauth");
    const othersToken = await insert(other.id, "x1");
    const listed = await store.read((tx) => tx.tokens.listLiveOfUser(user.id));
    assert.deepEqual(
      listed.map((t) => [t.label, t.origin, t.appName, t.appLevel]),
      [
        ["p1", "personal", "A2", "write"],
        ["o1", "oauth", "A2", "write"],
        ["o2", "oauth", "A2", "write"],
      ],
    );
    assert.equal(
      await store.transaction((tx) => tx.tokens.revokeOfUser(user.id, othersToken, "personal", T0)),
      false,
      "another user's token",
    );
    assert.equal(
      await store.transaction((tx) => tx.tokens.revokeOfUser(user.id, oauthA, "personal", T0)),
      false,
      "a token of the other origin",
    );
    assert.equal(await store.transaction((tx) => tx.tokens.revokeOfUser(user.id, personal, "personal", T0)), true);
    assert.equal(
      await store.transaction((tx) => tx.tokens.revokeOfUser(user.id, personal, "personal", T0)),
      false,
      "once",
    );
    assert.equal(await store.transaction((tx) => tx.tokens.revokeAppOfUser(user.id, app.id, "oauth", T0)), 2);
    assert.deepEqual(await store.read((tx) => tx.tokens.listLiveOfUser(user.id)), []);
    assert.equal((await store.read((tx) => tx.tokens.listLiveOfUser(other.id))).length, 1);
  });

  it("likers of many items at once, first liker first; a user's memberships; tasks of one state", async () => {
    const { user: a } = await store.transaction((tx) => seedUser(tx, "4"));
    const { user: b } = await store.transaction((tx) => seedUser(tx, "5"));
    const group = await store.transaction((tx) => tx.groups.insert({ name: "G", summary: "", createdAt: T0 }));
    const other = await store.transaction((tx) => tx.groups.insert({ name: "H", summary: "", createdAt: T0 }));
    await store.transaction(async (tx) => {
      await tx.memberships.insertJoined({
        groupId: group.id,
        userId: a.id,
        manager: true,
        notify: true,
        createdAt: T0,
      });
      await tx.memberships.insertJoined({
        groupId: other.id,
        userId: a.id,
        manager: false,
        notify: false,
        createdAt: T0,
      });
      await tx.memberships.insertJoined({
        groupId: group.id,
        userId: b.id,
        manager: false,
        notify: true,
        createdAt: T0,
      });
      await tx.memberships.insertInvite({
        groupId: other.id,
        email: "w4@example.com",
        label: "again",
        expiresAt: null,
        createdAt: T0,
      });
      await tx.likes.add(b.id, { kind: "COMMENT", id: 10 }, group.id, T0);
      await tx.likes.add(a.id, { kind: "COMMENT", id: 10 }, group.id, T0 + 1);
      await tx.likes.add(a.id, { kind: "COMMENT", id: 11 }, group.id, T0);
      await tx.likes.add(a.id, { kind: "BOARD", id: 10 }, group.id, T0);
    });
    const likers = await store.read((tx) => tx.likes.likersOf("COMMENT", [10, 11, 12]));
    assert.deepEqual(
      likers.get(10)?.map((l) => l.name),
      ["U5", "U4"],
    );
    assert.deepEqual(
      likers.get(11)?.map((l) => l.name),
      ["U4"],
    );
    assert.equal(likers.has(12), false);
    assert.deepEqual((await store.read((tx) => tx.likes.likersOf("COMMENT", []))).size, 0);
    const memberships = await store.read((tx) => tx.memberships.listJoinedOfUser(a.id));
    assert.deepEqual(
      memberships.map((m) => [m.groupId, m.manager, m.notify]),
      [
        [group.id, true, true],
        [other.id, false, false],
      ],
    );

    const task = (status: "NOT_STARTED" | "COMPLETED") => (tx: Tx) =>
      tx.tasks.insert({
        groupId: group.id,
        title: status,
        body: "",
        authorId: a.id,
        assigneeId: null,
        dueAt: null,
        allDay: false,
        priority: "B",
        status,
        folderId: null,
        trashed: false,
        at: T0,
      });
    await store.transaction(task("NOT_STARTED"));
    await store.transaction(task("COMPLETED"));
    const titles = async (status: "NOT_STARTED" | "COMPLETED") =>
      (
        await store.read((tx) =>
          tx.tasks.list(
            group.id,
            { kind: "all" },
            { term: undefined, notCompletedOnly: false, status },
            { offset: 0, limit: 10 },
          ),
        )
      ).map((t) => t.title);
    assert.deepEqual(await titles("COMPLETED"), ["COMPLETED"]);
    assert.deepEqual(await titles("NOT_STARTED"), ["NOT_STARTED"]);
    // A task deleted for good (the web's delete from the trash) is gone.
    const done = await store.transaction(task("COMPLETED"));
    await store.transaction((tx) => tx.tasks.remove(done.id));
    assert.equal(await store.read((tx) => tx.tasks.findById(done.id)), undefined);
    assert.deepEqual(await titles("COMPLETED"), ["COMPLETED"]);
  });
});
