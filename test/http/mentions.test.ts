// Mentions over real HTTP: who is notified (exactly the named members of the group, once per
// item, never the writer or an outsider), the MENTION category of the notification feed, muted
// groups, edits, comments, tasks, confirming, and what deletions and leaving take away.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { removeMember, setNotify } from "../../src/services/member/member-admin.js";
import { createTaskAsOperator, updateTaskAsOperator } from "../../src/services/task/task-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { addTestFile, addTestVersion } from "../support/files.js";
import type { TestUser } from "../support/factories.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { assertError, atomText, entriesOf, nsChild } from "../support/http.js";
import { BoardClient, NotificationClient, field, idsOf, termsOf } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("mentions (/api/notification/V2?category=MENTION)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let erin: TestUser;
  let olga: TestUser;
  let team: Group;
  let notifications: NotificationClient;
  let board: BoardClient;
  const mentions = async (user: TestUser, query = "") =>
    idsOf(await notifications.list(user, `category=MENTION${query}`));

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice", email: "alice@example.com" });
    bob = await f.user({ name: "Bob", email: "bob.b@example.com" });
    carol = await f.user({ name: "Carol Jones", email: "cj@example.com" });
    dave = await f.user({ name: "山田 太郎", email: "Dave_Y@example.org" });
    erin = await f.user({ name: "Erin", email: "erin@example.com" });
    olga = await f.user({ name: "Olga", email: "olga@example.com" });
    team = await f.group([alice, bob, carol, dave, erin], { name: "Team" });
    await f.group([olga, alice], { name: "Elsewhere" });
    notifications = new NotificationClient(server);
    board = new BoardClient(server);
  });
  after(() => server.close());

  it("notifies the members a topic names, by name, quoted name or address, never the writer or an outsider", async () => {
    server.clock.advance(60_000);
    const body = `Hi @Bob, @"Carol Jones" and @dave_y. Me: @Alice. Not here: @Olga. Twice: @Bob! Mail: x@Erin.com`;
    const id = await board.create(alice, team.id, "Plan", body);
    for (const user of [bob, carol, dave]) {
      const [entry, ...rest] = await notifications.list(user, "category=MENTION");
      assert.equal(rest.length, 0, `${user.name}: one mention notification per item`);
      assert.equal(atomText(entry!, "id"), id);
      assert.deepEqual(termsOf(entry!), ["GROUP", "BOARD", "MENTION"]);
      assert.equal(atomText(nsChild(entry!, "atom", "author")!, "name"), "Alice");
      assert.equal(atomText(entry!, "summary"), body);
      assert.equal(field(entry!, "cbl", "confirmed"), "false");
      assert.equal(field(entry!, "cblNtf", "icon"), "MENTION");
      assert.equal(nsChild(entry!, "cblNtf", "commentId"), undefined, "named in the body");
    }
    assert.deepEqual(await mentions(alice), [], "naming oneself notifies no one");
    assert.deepEqual(await mentions(erin), [], "an e-mail address is no mention");
    assert.deepEqual(await mentions(olga), [], "an outsider is never notified");
    // The unfiltered feed holds both: the topic's notification and the mention, mention first.
    const all = await notifications.list(bob);
    assert.deepEqual(all.map(termsOf), [
      ["GROUP", "BOARD", "MENTION"],
      ["GROUP", "BOARD"],
    ]);
    assert.deepEqual(
      idsOf(await notifications.list(bob, "category=BOARD")),
      [id],
      "other categories leave mentions out",
    );
  });

  it("delivers a mention in a group the member muted, and hides the rest of that group", async () => {
    await setNotify(server, { groupId: team.id, email: erin.email, value: false });
    try {
      server.clock.advance(60_000);
      const quiet = await board.create(alice, team.id, "Quiet", "no mention");
      const loud = await board.create(alice, team.id, "Loud", "ping @erin");
      assert.deepEqual(idsOf(await notifications.list(erin)), [loud], "the mention alone");
      assert.deepEqual(termsOf((await notifications.list(erin))[0]!), ["GROUP", "BOARD", "MENTION"]);
      assert.deepEqual((await notifications.ids(erin, "include-rule-out=true")).slice(0, 3), [loud, loud, quiet]);
    } finally {
      await setNotify(server, { groupId: team.id, email: erin.email, value: true });
    }
  });

  it("notifies only the newly named on an edit, and a comment's mention brings the item's back unconfirmed", async () => {
    server.clock.advance(60_000);
    const id = await board.create(bob, team.id, "Edit me", "for @Alice");
    const answer = await confirmIn(alice, [id], "MENTION");
    assert.equal(field(answer[0]!, "cbl", "confirmed"), "true");
    assert.deepEqual(await mentions(alice, "&unconfirmed=true"), []);
    server.clock.advance(60_000);
    await board.update(bob, id, "Edit me", "for @Alice and @Carol Jones? no: @cj");
    assert.deepEqual(await mentions(alice, "&unconfirmed=true"), [], "Alice was named before the edit");
    assert.deepEqual(
      (await mentions(carol)).filter((x) => x === id),
      [id],
      "Carol is newly named",
    );
    server.clock.advance(60_000);
    const commentId = await board.comment(carol, id, "@alice look");
    const [entry] = await notifications.list(alice, "category=MENTION&unconfirmed=true");
    assert.equal(atomText(entry!, "id"), id);
    assert.equal(field(entry!, "cblNtf", "commentId"), commentId);
    assert.equal(atomText(nsChild(entry!, "atom", "author")!, "name"), "Carol Jones");
  });

  it("confirms mentions only with category=MENTION; an unknown category is refused", async () => {
    server.clock.advance(60_000);
    const id = await board.create(alice, team.id, "Confirm", "@Bob");
    const plain = await notifications.confirm(bob, [id]);
    assert.deepEqual(plain.map(termsOf), [["GROUP", "BOARD"]], "without category: the topic's notification");
    assert.ok((await mentions(bob, "&unconfirmed=true")).includes(id));
    const answer = await confirmIn(bob, [id], "MENTION");
    assert.deepEqual(answer.map(termsOf), [["GROUP", "BOARD", "MENTION"]]);
    assert.ok(!(await mentions(bob, "&unconfirmed=true")).includes(id));
    assert.deepEqual(
      (await confirmIn(bob, [id], "mention")).map((e) => field(e, "cbl", "confirmed")),
      ["true"],
      "idempotent, any letter case",
    );
    assertError(await notifications.post(bob, [id], undefined, "category=NOPE"), 400, "INVALID_CATEGORY");
  });

  it(`resolves the first ${LIMITS.mentionsPerText} distinct handles of a text and no more`, async () => {
    const names = Array.from({ length: LIMITS.mentionsPerText - 1 }, (_, i) => `@nobody${i}`);
    server.clock.advance(60_000);
    const atLimit = await board.create(alice, team.id, "Many", `${names.join(" ")} @bob.b`);
    const beyond = await board.create(alice, team.id, "Too many", `${names.join(" ")} @none @bob.b`);
    const bobs = await mentions(bob);
    assert.ok(bobs.includes(atLimit), "the 20th handle counts");
    assert.ok(!bobs.includes(beyond), "the 21st does not");
  });

  it("notifies from task bodies (an operator's edit has no writer) and from comments on tasks", async () => {
    server.clock.advance(60_000);
    const task = await createTaskAsOperator(server, {
      groupId: team.id,
      title: "Task",
      body: "for @Erin and @Alice",
      authorEmail: alice.email,
      due: null,
      priority: "B",
      status: "NOT_STARTED",
      folderId: null,
    });
    const id = `GROUP,1:${team.id},TASK,1:${task.id}`;
    assert.ok((await mentions(erin)).includes(id));
    assert.ok(!(await mentions(alice)).includes(id));
    server.clock.advance(60_000);
    await updateTaskAsOperator(server, {
      ref: { kind: "TASK", groupId: team.id, id: task.id },
      body: "for @Erin, @Alice, @Bob",
    });
    assert.ok(!(await mentions(alice)).includes(id), "named before the edit (by herself)");
    const [entry] = await notifications.list(bob, "category=MENTION");
    assert.equal(atomText(entry!, "id"), id);
    assert.deepEqual(termsOf(entry!), ["GROUP", "TASK", "MENTION"]);
    assert.equal(atomText(nsChild(entry!, "atom", "author")!, "name"), "", "an operator's change has no author");
    server.clock.advance(60_000);
    await board.comment(erin, id, "thanks @Alice");
    assert.ok((await mentions(alice)).includes(id), "a comment on a task names too");
  });

  it("notifies from a shared file's memo, once, when the file is added", async () => {
    server.clock.advance(60_000);
    const file = await addTestFile(server, team, alice, { title: "Budget", memo: "please check @cj and @Olga" });
    const id = `GROUP,1:${team.id},CABINET,1:${file.id}`;
    const [entry] = await notifications.list(carol, "category=MENTION");
    assert.equal(atomText(entry!, "id"), id);
    assert.deepEqual(termsOf(entry!), ["GROUP", "CABINET", "MENTION"]);
    assert.ok(!(await mentions(olga)).includes(id), "an outsider is never notified");
    server.clock.advance(60_000);
    await addTestVersion(server, file, bob, Buffer.from("v2"));
    assert.equal((await mentions(carol)).filter((found) => found === id).length, 1, "a new version names no one again");
  });

  it("takes mentions away with the comment, the item, and the membership", async () => {
    server.clock.advance(60_000);
    const id = await board.create(alice, team.id, "Gone", "");
    const commentId = await board.comment(alice, id, "@Erin");
    assert.ok((await mentions(erin)).includes(id));
    await board.deleteComment(alice, commentId);
    assert.ok(!(await mentions(erin)).includes(id), "the comment's mention went with it");
    const other = await board.create(alice, team.id, "Gone too", "@Erin");
    await board.remove(alice, other);
    assert.ok(!(await mentions(erin)).includes(other));
    await board.create(alice, team.id, "Leaving", "@Dave_Y");
    assert.ok((await mentions(dave)).length > 0);
    await removeMember(server, { groupId: team.id, email: dave.email });
    const rows = await server.store.read((tx) => tx.mentions.listRows(dave.id, filterAll, 100));
    assert.deepEqual(rows, [], "a member who left keeps none");
  });

  const filterAll = {
    unconfirmedOnly: false,
    mentions: "only",
    itemKind: null,
    groupId: null,
    hiddenGroupIds: [],
  } as const;

  /** Confirms with `?category=`; asserts 200 and a valid feed. */
  async function confirmIn(user: TestUser, ids: readonly string[], category: string) {
    const answer = await notifications.post(user, ids, undefined, `category=${category}`);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    return entriesOf(answer.xml);
  }
});
