import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { ContentRef } from "../../src/domain/item-id.js";
import type { Store, Tx } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

// The Store contract: every engine runs the same shared queries, so every engine must give the
// same answers. Runs once per backend (testBackends()).

const T0 = 1_700_000_000_000;

async function seedUser(tx: Tx, n: string) {
  const user = await tx.users.insert({
    name: `U${n}`,
    email: `U${n}@Example.com`,
    familyKana: "",
    givenKana: "",
    passwordHash: `h${n}`,
    createdAt: T0,
  });
  const app = await tx.apps.insert({
    name: `A${n}`,
    consumerKey: `key-${n}`,
    consumerSecret: `sec-${n}`,
    accessLevel: "Z",
    createdAt: T0,
  });
  return { user, app };
}

describeEachBackend("Store contract", (backend) => {
  let opened: TestStore;
  let store: Store;
  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
  });
  after(() => opened.close());

  it("is empty until a user exists; users keep ids and lower-case e-mails; duplicates are refused", async () => {
    assert.equal(await store.isEmpty(), true);
    const { user } = await store.transaction((tx) => seedUser(tx, "1"));
    assert.equal(await store.isEmpty(), false);
    assert.equal(typeof user.id, "number", "int8 ids come back as numbers");
    assert.deepEqual(await store.read((tx) => tx.users.findById(user.id)), user);
    const creds = await store.read((tx) => tx.users.findCredentialsByEmail("U1@EXAMPLE.COM"));
    assert.equal(creds?.passwordHash, "h1");
    assert.equal(creds?.email, "u1@example.com");
    await assert.rejects(store.transaction((tx) => seedUser(tx, "1")));
    assert.equal((await store.read((tx) => tx.users.list())).length, 1, "the failed transaction left nothing behind");
  });

  it("applications and tokens: lookup by key and hash, revoke once, remove cascades", async () => {
    const { user, app } = await store.transaction((tx) => seedUser(tx, "2"));
    const tokenId = await store.transaction((tx) =>
      tx.tokens.insert({
        userId: user.id,
        appId: app.id,
        tokenHash: "hash-2",
        secret: "s2",
        label: "cli",
        createdAt: T0 + 1,
      }),
    );
    assert.equal((await store.read((tx) => tx.apps.findByConsumerKey("key-2")))?.consumerSecret, "sec-2");
    const grant = await store.read((tx) => tx.tokens.findLive("hash-2"));
    assert.equal(grant?.tokenId, tokenId);
    assert.equal(grant?.user.id, user.id);
    assert.equal(grant?.app.consumerKey, "key-2");
    const listed = (await store.read((tx) => tx.tokens.list())).find((t) => t.id === tokenId);
    assert.deepEqual(listed, {
      id: tokenId,
      userEmail: "u2@example.com",
      appConsumerKey: "key-2",
      label: "cli",
      createdAt: T0 + 1,
      revokedAt: null,
    });
    assert.equal(await store.transaction((tx) => tx.tokens.revoke(tokenId, T0 + 2)), true);
    assert.equal(await store.transaction((tx) => tx.tokens.revoke(tokenId, T0 + 3)), false);
    assert.equal(await store.read((tx) => tx.tokens.findLive("hash-2")), undefined);
    assert.equal(await store.transaction((tx) => tx.apps.remove("key-2")), true);
    assert.equal(await store.transaction((tx) => tx.apps.remove("key-2")), false);
    assert.equal(
      (await store.read((tx) => tx.tokens.list())).some((t) => t.id === tokenId),
      false,
    );
  });

  it("groups newest first with paging; memberships and invitations", async () => {
    const { user } = await store.transaction((tx) => seedUser(tx, "3"));
    const ids = await store.transaction(async (tx) => {
      const out: number[] = [];
      for (let i = 0; i < 3; i++) {
        const group = await tx.groups.insert({ name: `G${i}`, summary: "", createdAt: T0 + i });
        await tx.memberships.insertJoined({
          groupId: group.id,
          userId: user.id,
          manager: i === 0,
          notify: false,
          createdAt: T0,
        });
        out.push(group.id);
      }
      await tx.memberships.insertInvite({
        groupId: out[0]!,
        email: "New@Example.com",
        label: "new",
        expiresAt: null,
        createdAt: T0,
      });
      return out;
    });
    const page = (offset: number) => store.read((tx) => tx.groups.listJoined(user.id, { offset, limit: 2 }));
    assert.deepEqual(
      (await page(0)).map((g) => g.id),
      [ids[2], ids[1]],
    );
    assert.deepEqual(
      (await page(2)).map((g) => g.id),
      [ids[0]],
    );
    const member = await store.read((tx) => tx.memberships.findJoined(ids[0]!, user.id));
    assert.equal(member?.manager, true);
    assert.equal(member?.notify, false);
    await assert.rejects(
      store.transaction((tx) =>
        tx.memberships.insertJoined({ groupId: ids[0]!, userId: user.id, manager: false, notify: true, createdAt: T0 }),
      ),
      "one membership per user and group",
    );
  });

  it("placeholders: marked apart from disabled accounts; their claim invitations listed, hidden from the address, ended", async () => {
    const made = await store.transaction(async (tx) => {
      const { user: placeholder } = await seedUser(tx, "p1");
      const { user: disabled } = await seedUser(tx, "p2");
      await tx.users.update(placeholder.id, { disabledAt: T0, placeholderAt: T0 });
      await tx.users.update(disabled.id, { disabledAt: T0 });
      const group = await tx.groups.insert({ name: "Imported", summary: "", createdAt: T0 });
      await tx.memberships.insertJoined({
        groupId: group.id,
        userId: placeholder.id,
        manager: false,
        notify: true,
        createdAt: T0,
      });
      const claim = { groupId: group.id, label: "Up1", expiresAt: null, createdAt: T0 };
      const first = await tx.memberships.insertInvite({
        ...claim,
        email: "Claimer@Example.com",
        claimUserId: placeholder.id,
      });
      const second = await tx.memberships.insertInvite({
        ...claim,
        email: "other@example.com",
        claimUserId: placeholder.id,
      });
      const plain = await tx.memberships.insertInvite({
        ...claim,
        email: "claimer@example.com",
        label: "plain",
        groupId: group.id,
      });
      return { placeholder, disabled, group, first, second, plain };
    });
    assert.deepEqual(await store.read((tx) => tx.users.findPlaceholder(made.placeholder.id)), made.placeholder);
    assert.equal(await store.read((tx) => tx.users.findPlaceholder(made.disabled.id)), undefined);
    const members = await store.read((tx) =>
      tx.memberships.listMembers(made.group.id, "JOIN", { offset: 0, limit: 10 }),
    );
    assert.equal(members[0]?.placeholderEmail, "up1@example.com");
    const invitation = await store.read((tx) => tx.invitations.find(made.first));
    assert.deepEqual([invitation?.claimUserId, invitation?.claimName], [made.placeholder.id, "Up1"]);
    const live = await store.read((tx) => tx.invitations.listLiveForEmail("claimer@example.com", T0));
    assert.deepEqual(
      live.map((row) => row.memberId),
      [made.plain],
      "only the ordinary invitation",
    );
    await store.transaction((tx) => tx.invitations.removeClaimsOf(made.placeholder.id));
    const left = await store.read((tx) => tx.invitations.listOfGroup(made.group.id));
    assert.deepEqual(
      left.map((row) => row.memberId),
      [made.plain],
    );
    await store.transaction((tx) => tx.users.update(made.placeholder.id, { placeholderAt: null }));
    assert.equal(await store.read((tx) => tx.users.findPlaceholder(made.placeholder.id)), undefined);
  });

  it("folders in id order with paging; topics filtered and paged newest first, ties by id", async () => {
    const { user } = await store.transaction((tx) => seedUser(tx, "4"));
    const { group, folders, topics } = await store.transaction(async (tx) => {
      const group = await tx.groups.insert({ name: "board", summary: "", createdAt: T0 });
      const folders = [];
      for (const name of ["a", "b", "c"])
        folders.push(await tx.folders.insert({ groupId: group.id, area: "BOARD", name, createdAt: T0 }));
      const topic = (title: string, at: number, folderId: number | null, trashed = false) =>
        tx.topics.insert({
          groupId: group.id,
          title,
          body: "",
          authorId: user.id,
          folderId,
          allowEdit: true,
          fastNotify: false,
          trashed,
          at,
        });
      const topics = [
        await topic("t0", T0, null),
        await topic("t1", T0 + 5, folders[0]!.id),
        await topic("t2", T0 + 5, null),
        await topic("t3", T0 + 1, null, true),
      ];
      return { group, folders, topics };
    });
    assert.deepEqual(
      (await store.read((tx) => tx.folders.list(group.id, "BOARD", { offset: 1, limit: 5 }))).map((f) => f.name),
      ["b", "c"],
    );
    assert.equal((await store.read((tx) => tx.folders.findById(folders[2]!.id)))?.name, "c");
    const list = async (filter: Parameters<Tx["topics"]["list"]>[1], offset = 0, limit = 10) =>
      (await store.read((tx) => tx.topics.list(group.id, filter, { offset, limit }))).map((t) => t.title);
    assert.deepEqual(await list({ kind: "all" }), ["t2", "t1", "t0"]);
    assert.deepEqual(await list({ kind: "all" }, 1, 1), ["t1"]);
    assert.deepEqual(await list({ kind: "unclassified" }), ["t2", "t0"]);
    assert.deepEqual(await list({ kind: "folder", folderId: folders[0]!.id }), ["t1"]);
    assert.deepEqual(await list({ kind: "trash" }), ["t3"]);
    const t1 = await store.read((tx) => tx.topics.findById(topics[1]!.id));
    assert.deepEqual([t1?.folderName, t1?.allowEdit, t1?.fastNotify, t1?.authorName], ["a", true, false, "U4"]);
    await store.transaction((tx) => tx.topics.update(topics[0]!.id, { title: "t0'", body: "b", at: T0 + 9 }));
    assert.deepEqual(await list({ kind: "all" }), ["t0'", "t2", "t1"]);
    await store.transaction((tx) => tx.topics.remove(topics[0]!.id));
    assert.equal(await store.read((tx) => tx.topics.findById(topics[0]!.id)), undefined);
    // Filing and the trash change only what is given (and the time).
    await store.transaction((tx) => tx.topics.place(topics[2]!.id, { folderId: folders[1]!.id, at: T0 + 10 }));
    await store.transaction((tx) => tx.topics.place(topics[1]!.id, { trashed: true, at: T0 + 11 }));
    await store.transaction((tx) => tx.topics.place(topics[3]!.id, { trashed: false, at: T0 + 12 }));
    assert.deepEqual(await list({ kind: "folder", folderId: folders[1]!.id }), ["t2"]);
    assert.deepEqual(await list({ kind: "trash" }), ["t1"]);
    assert.deepEqual(await list({ kind: "all" }), ["t3", "t2"]);
    const placed = await store.read((tx) => tx.topics.findById(topics[1]!.id));
    assert.deepEqual([placed?.folderId, placed?.trashed, placed?.updatedAt], [folders[0]!.id, true, T0 + 11]);
  });

  it("comments: numbers never reused, newest first, counters reset with the parent", async () => {
    const { parent, userId } = await topicParent(store, "5");
    const add = (body: string) =>
      store.transaction(async (tx) =>
        tx.comments.insert({
          parent,
          number: await tx.comments.nextNumber(parent),
          authorId: userId,
          body,
          replyTo: null,
          at: T0,
        }),
      );
    const [c1, c2] = [await add("one"), await add("two")];
    assert.deepEqual([c1.number, c2.number], [1, 2]);
    await store.transaction((tx) => tx.comments.remove(c2.id));
    assert.equal((await add("three")).number, 3, "a deleted comment's number is not handed out again");
    assert.deepEqual(
      (await store.read((tx) => tx.comments.listAll([parent]))).map((c) => c.number),
      [3, 1],
    );
    assert.equal((await store.read((tx) => tx.comments.find(parent, 1)))?.authorName, "U5");
    assert.equal((await store.transaction((tx) => tx.comments.removeAllOf(parent))).length, 2);
    assert.equal((await add("again")).number, 1);
  });

  it("comments: 50 concurrent transactions get 50 distinct numbers", async () => {
    const { parent, userId } = await topicParent(store, "6");
    const numbers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        store.transaction(async (tx) => {
          const number = await tx.comments.nextNumber(parent);
          await tx.comments.insert({ parent, number, authorId: userId, body: `c${i}`, replyTo: null, at: T0 });
          return number;
        }),
      ),
    );
    assert.deepEqual(
      [...numbers].sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
  });

  it("leases: put, replace, find with the holder's name, remove", async () => {
    const { parent, userId } = await topicParent(store, "7");
    await store.transaction((tx) => tx.leases.put({ topicId: parent.id, userId, since: T0, until: T0 + 10 }));
    await store.transaction((tx) => tx.leases.put({ topicId: parent.id, userId, since: T0, until: T0 + 20 }));
    assert.deepEqual(await store.read((tx) => tx.leases.find(parent.id)), {
      topicId: parent.id,
      userId,
      userName: "U7",
      since: T0,
      until: T0 + 20,
    });
    await store.transaction((tx) => tx.leases.remove(parent.id));
    assert.equal(await store.read((tx) => tx.leases.find(parent.id)), undefined);
  });

  it("files: remove takes the file with every version and gives back their blob keys", async () => {
    const version = (n: number, thumbnail: boolean, authorId: number) => ({
      fileName: `f${n}.png`,
      size: n,
      mimeType: "image/png",
      blobKey: `blob${n}`,
      width: null,
      height: null,
      thumbnailKey: thumbnail ? `blob${n}.thumbnail` : null,
      authorId,
      comment: "",
      at: T0 + n,
    });
    const { kept, gone } = await store.transaction(async (tx) => {
      const { user } = await seedUser(tx, "8");
      const group = await tx.groups.insert({ name: "g8", summary: "", createdAt: T0 });
      const file = { groupId: group.id, title: "", memo: "", authorId: user.id, folderId: null, trashed: true };
      const gone = await tx.files.insert(file, version(1, true, user.id));
      await tx.files.addVersion(gone.id, version(2, false, user.id));
      const kept = await tx.files.insert(file, version(3, false, user.id));
      return { kept, gone };
    });
    const keys = await store.transaction((tx) => tx.files.remove(gone.id));
    assert.deepEqual(keys.sort(), ["blob1", "blob1.thumbnail", "blob2"]);
    assert.equal(await store.read((tx) => tx.files.findById(gone.id)), undefined);
    assert.equal(await store.read((tx) => tx.files.findVersion(gone.id, 1)), undefined);
    assert.equal((await store.read((tx) => tx.files.findById(kept.id)))?.current.blobKey, "blob3", "others stay");
  });
});

async function topicParent(store: Store, n: string): Promise<{ parent: ContentRef; userId: number }> {
  return store.transaction(async (tx) => {
    const { user } = await seedUser(tx, n);
    const group = await tx.groups.insert({ name: `g${n}`, summary: "", createdAt: T0 });
    const topic = await tx.topics.insert({
      groupId: group.id,
      title: "t",
      body: "",
      authorId: user.id,
      folderId: null,
      allowEdit: false,
      fastNotify: false,
      trashed: false,
      at: T0,
    });
    return { parent: { kind: "BOARD", groupId: group.id, id: topic.id }, userId: user.id };
  });
}
