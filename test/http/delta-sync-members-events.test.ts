// Delta sync (docs/api.md "Delta sync") of the member list and the group events: the mirror client
// of test/support/mirror.ts follows each through creations, edits, deletions, filters and leaving.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { type Kysely, sql } from "kysely";
import { NS } from "../../src/atom/namespaces.js";
import { children } from "../../src/atom/parse.js";
import type { Actor } from "../../src/domain/access.js";
import { TOMBSTONE_KEEP_DAYS } from "../../src/domain/changes.js";
import type { Group } from "../../src/domain/group.js";
import { leaveGroup } from "../../src/services/group/group-manage.js";
import { pruneTombstones } from "../../src/services/item/changes.js";
import { openPostgresDatabase } from "../../src/store/postgres/open.js";
import type { Database } from "../../src/store/schema.js";
import { openSqliteDatabase } from "../../src/store/sqlite/open.js";
import { addMember, inviteMember, removeMember, setManager } from "../../src/services/member/member-admin.js";
import type { TestUser } from "../support/factories.js";
import { assertError, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { postEvent } from "../support/events.js";
import { Mirror, fullRead, idOf, nextChanges } from "../support/mirror.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("delta sync: the member list", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let url: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    url = `${server.url}/api/gwMemberList/V2?group=1:${group.id}`;
  });
  after(() => server.close());

  it("follows joins, role changes, removals and invitations, paged, to the server's view", async () => {
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 2);
    const invites = new Mirror(bob.token);
    await invites.start(`${url}&member-status=INVITE`);
    assert.equal(invites.items.size, 0);

    const carol = await server.factories.user({ name: "Carol" });
    const dave = await server.factories.user({ name: "Dave" });
    await addMember(server, { groupId: group.id, email: carol.email, manager: false });
    await addMember(server, { groupId: group.id, email: dave.email, manager: false });
    await setManager(server, { groupId: group.id, email: carol.email, value: true });
    await removeMember(server, { groupId: group.id, email: dave.email });
    await inviteMember(server, { groupId: group.id, email: "erin@example.com", label: "Erin", expiresAt: null });
    for (let i = 0; i < 4; i++) {
      const more = await server.factories.user({ name: `More ${i}` });
      await addMember(server, { groupId: group.id, email: more.email, manager: false });
    }
    assert.ok((await mirror.sync()) >= 3, "more changes than max-results take several pages");
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.deepEqual([...view.values()].sort(), ["Alice", "Bob", "Carol", "More 0", "More 1", "More 2", "More 3"]);
    await invites.sync();
    assert.deepEqual(invites.items, await fullRead(`${url}&member-status=INVITE`, bob.token));
    assert.deepEqual([...invites.items.values()], ["Erin"]);
  });

  it("answers 410 once a removal after the cursor was pruned", async () => {
    const old = nextChanges((await request(url, { token: bob.token })).xml);
    const frank = await server.factories.user({ name: "Frank" });
    await addMember(server, { groupId: group.id, email: frank.email, manager: false });
    await removeMember(server, { groupId: group.id, email: frank.email });
    const day = 86_400_000;
    const at = (days: number) => ({ store: server.store, clock: { now: () => Date.now() + days * day } });
    assert.ok((await pruneTombstones(at(TOMBSTONE_KEEP_DAYS + 1))) >= 1);
    assertError(await request(old, { token: bob.token }), 410, "CHANGES_CURSOR_EXPIRED");
  });

  it("empties the mirror of a member who left, then answers 403", async () => {
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(url);
    assert.ok(mirror.items.size > 2);
    await leaveGroup(server, actorOf(bob), { groupId: group.id });
    await mirror.sync().catch(() => undefined);
    assert.deepEqual(mirror.items, new Map(), "every member bob saw is gone from his mirror");
    assertError(await request(mirror.next, { token: bob.token }), 403, "GROUP_NOT_JOINED");
  });
});

describeEachBackend("delta sync: group events", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let url: string;
  const actorOf = (user: TestUser): Actor => ({
    user,
    app: { id: 0, name: "test", consumerKey: "test", accessLevel: "Z" },
  });
  const add = async (title: string, start: string, end: string, extra = "") => {
    const answer = await postEvent(server.url, alice.token, { groupId: group.id, title, start, end, extra });
    assert.equal(answer.status, 200, answer.text);
    return idOf(children(answer.xml, NS.atom, "entry")[0]!);
  };
  const update = async (id: string, title: string, start: string, end: string, extra = "") => {
    const answer = await postEvent(server.url, alice.token, { operation: "update", id, title, start, end, extra });
    assert.equal(answer.status, 200, answer.text);
  };
  const numberOf = (id: string) => Number(id.split(",").at(-1)?.split(":")[1]);

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
    url = `${server.url}/api/gwSchedule/V2?group=1:${group.id}&term-start=2026-04-01T00:00:00Z&term-end=2026-05-01T00:00:00Z`;
  });
  after(() => server.close());

  it("follows events through creations, edits, moves out of the window, deletes and exceptions", async () => {
    const kept = await add("kept", "2026-04-02T09:00:00Z", "2026-04-02T10:00:00Z");
    const moved = await add("moved away", "2026-04-03T09:00:00Z", "2026-04-03T10:00:00Z");
    const weekly = await add(
      "weekly",
      "2026-04-06T09:00:00Z",
      "2026-04-06T10:00:00Z",
      "<cblSch:rule>FREQ=WEEKLY;COUNT=3</cblSch:rule>",
    );
    const mirror = new Mirror(bob.token);
    await mirror.start(url);
    assert.equal(mirror.items.size, 3);

    await update(kept, "kept, edited", "2026-04-02T09:00:00Z", "2026-04-02T10:00:00Z");
    await update(moved, "moved away", "2026-06-03T09:00:00Z", "2026-06-03T10:00:00Z");
    const gone = await add("to delete", "2026-04-04T09:00:00Z", "2026-04-04T10:00:00Z");
    const deleted = await postEvent(server.url, alice.token, { operation: "delete", id: gone });
    assert.equal(deleted.status, 200, deleted.text);
    for (let i = 0; i < 4; i++) await add(`more ${i}`, `2026-04-1${i}T09:00:00Z`, `2026-04-1${i}T10:00:00Z`);
    assert.ok((await mirror.sync()) >= 3, "paged");
    const view = await fullRead(url, bob.token);
    assert.deepEqual(mirror.items, view);
    assert.equal(view.get(kept), "kept, edited");
    assert.equal(view.has(moved), false, "moved out of the window: a tombstone");
    assert.equal(view.size, 6);

    // An exception written alone (a moved occurrence) is a change of its event.
    const before = await request(mirror.next, { token: bob.token });
    assert.equal(children(before.xml, NS.atom, "entry").length, 0, "up to date");
    // Written by an operator's SQL: the triggers see every writer.
    const config = server.storeConfig;
    const operator: Kysely<Database> =
      config.kind === "sqlite" ? openSqliteDatabase(config.file) : openPostgresDatabase({ url: config.url });
    try {
      await sql`INSERT INTO event_exceptions (event_id, group_id, original_start, cancelled, start_at, end_at)
        VALUES (${numberOf(weekly)}, ${group.id}, ${Date.parse("2026-04-13T09:00:00Z")}, 1, NULL, NULL)`.execute(
        operator,
      );
    } finally {
      await operator.destroy();
    }
    const after = await request(mirror.next, { token: bob.token });
    assert.deepEqual(
      children(after.xml, NS.atom, "entry").map(idOf),
      [weekly],
      "the repeating event comes again, with its exception",
    );
    await mirror.sync();
    assert.deepEqual(mirror.items, await fullRead(url, bob.token));
  });

  it("gives no cursor to a window counted from now, and refuses one there", async () => {
    const plain = await request(`${server.url}/api/gwSchedule/V2?group=1:${group.id}`, { token: bob.token });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(
      children(plain.xml, NS.atom, "link").some((link) => link.attributes.get("rel") === "next-changes"),
      false,
    );
    const cursor = new URL(nextChanges((await request(url, { token: bob.token })).xml)).searchParams.get(
      "changes-since",
    );
    const moving = `${server.url}/api/gwSchedule/V2?group=1:${group.id}&changes-since=${cursor}`;
    assertError(await request(moving, { token: bob.token }), 400, "CHANGES_NOT_SUPPORTED");
    // Search results are no list a cursor could follow: refused, with the reason.
    const search = await request(`${server.url}/api/search/V2?q=kept&changes-since=${cursor}`, { token: bob.token });
    assertError(search, 400, "CHANGES_NOT_SUPPORTED");
    assert.match(search.text, /search results/);
  });

  it("empties the mirror of a member who left, then answers 403", async () => {
    const mirror = new Mirror(bob.token, 2);
    await mirror.start(url);
    assert.ok(mirror.items.size > 2);
    await leaveGroup(server, actorOf(bob), { groupId: group.id });
    await add("after bob left", "2026-04-20T09:00:00Z", "2026-04-20T10:00:00Z");
    await mirror.sync().catch(() => undefined);
    assert.deepEqual(mirror.items, new Map());
    assertError(await request(mirror.next, { token: bob.token }), 403, "GROUP_NOT_JOINED");
  });
});

describeEachBackend("delta sync: the numbering rule of members and events", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob], { managers: [alice] });
  });
  after(() => server.close());

  it(
    "numbers a member's and an event's change committed late above those committed meanwhile",
    { skip: backend === "sqlite" ? "SQLite runs one write transaction at a time" : false },
    async () => {
      const answer = await postEvent(server.url, alice.token, {
        groupId: group.id,
        title: "with bob",
        start: "2026-04-02T09:00:00Z",
        end: "2026-04-02T10:00:00Z",
        extra: `<cbl:who id="1:${bob.id}"/>`,
      });
      assert.equal(answer.status, 200, answer.text);
      const eventId = Number(
        idOf(children(answer.xml, NS.atom, "entry")[0]!)
          .split(":")
          .at(-1),
      );
      const bobMembership = await server.store.read((tx) => tx.memberships.findJoined(group.id, bob.id));
      assert.ok(bobMembership);
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      // The slow transaction writes first (an answer: a part of the event; a role) and commits last.
      const slow = server.store.transaction(async (tx) => {
        assert.equal(await tx.events.setAnswer(eventId, bob.id, "attending", server.clock.now()), true);
        await tx.memberships.update(bobMembership.id, { manager: true, at: server.clock.now() });
        wrote();
        await gate;
      });
      await written;
      const fast = await postEvent(server.url, alice.token, {
        groupId: group.id,
        title: "fast",
        start: "2026-04-03T09:00:00Z",
        end: "2026-04-03T10:00:00Z",
      });
      assert.equal(fast.status, 200, fast.text);
      const fastEvent = Number(
        idOf(children(fast.xml, NS.atom, "entry")[0]!)
          .split(":")
          .at(-1),
      );
      const carol = await server.factories.user({ name: "Carol" });
      const joined = await addMember(server, { groupId: group.id, email: carol.email, manager: false });
      release();
      await slow;
      const seqOf = async (kind: string, id: number) => {
        const changes = await server.store.read((tx) =>
          tx.itemChanges.after({ groupId: group.id, kind, parentId: 0 }, 0, 1000),
        );
        return changes.find((change) => change.itemId === id)?.seq ?? 0;
      };
      const [late, early] = [await seqOf("GW_SCHEDULE", eventId), await seqOf("GW_SCHEDULE", fastEvent)];
      assert.ok(late > early, `event: late ${late} after fast ${early}`);
      const [role, join] = [await seqOf("MEMBER", bobMembership.id), await seqOf("MEMBER", joined.id)];
      assert.ok(role > join, `member: late ${role} after fast ${join}`);
    },
  );
});
