import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { utcTimestamp } from "../../src/atom/build.js";
import type { Group } from "../../src/domain/group.js";
import { addMember, removeMember } from "../../src/services/member/member-admin.js";
import { createTaskAsOperator, moveTaskAsOperator, updateTaskAsOperator } from "../../src/services/task/task-admin.js";
import { uploadFileVersionAsOperator, trashFileAsOperator } from "../../src/services/file/file-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { atomText, entriesOf, nsChild, request } from "../support/http.js";
import { BoardClient, NotificationClient, entryWithId, field, termsOf } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("update notifications: generation and confirmation (/api/notification/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let team: Group;
  let notifications: NotificationClient;
  let board: BoardClient;
  const now = () => utcTimestamp(server.clock.now());

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    outsider = await f.user({ name: "Olga" });
    team = await f.group([alice, bob, carol], { name: "Team" });
    await f.group([outsider]);
    notifications = new NotificationClient(server);
    board = new BoardClient(server);
  });
  after(() => server.close());

  it("notifies every other member of a new topic with every field of the entry, never its author", async () => {
    server.clock.advance(60_000);
    const id = await board.create(alice, team.id, "Plan", "Body & text");
    const created = now();
    for (const user of [bob, carol]) {
      const [entry, ...rest] = await notifications.list(user);
      assert.equal(rest.length, 0);
      assert.equal(atomText(entry!, "id"), id);
      assert.equal(atomText(entry!, "title"), "Plan");
      assert.deepEqual(termsOf(entry!), ["GROUP", "BOARD"]);
      assert.deepEqual(
        entry!.children.filter((c) => c.local === "link").map((c) => c.attributes.get("rel")),
        ["alternate", "mobile"],
      );
      assert.equal(atomText(nsChild(entry!, "atom", "author")!, "name"), "Alice");
      assert.equal(atomText(nsChild(entry!, "atom", "author")!, "uri"), `1:${alice.id}`);
      assert.equal(atomText(entry!, "updated"), created);
      assert.equal(atomText(entry!, "summary"), "Body & text");
      assert.equal(nsChild(entry!, "cbl", "group")?.attributes.get("id"), `1:${team.id}`);
      assert.equal(nsChild(entry!, "cbl", "group")?.attributes.get("valueString"), "Team");
      assert.equal(field(entry!, "cbl", "confirmed"), "false");
      assert.equal(field(entry!, "cbl", "unconfirmedCommentCount"), "0");
      assert.equal(nsChild(entry!, "cbl", "summaryUpdated"), undefined, "no body edit yet");
      assert.equal(nsChild(entry!, "cblNtf", "commentId"), undefined, "not caused by a comment");
      assert.equal(nsChild(entry!, "cblNtf", "commentDeleted"), undefined);
      assert.equal(field(entry!, "cblNtf", "lastAccess"), created, "never confirmed: unseen since it began");
      assert.equal(field(entry!, "cblNtf", "icon"), "BOARD");
    }
    assert.deepEqual(await notifications.ids(alice), [], "the author is not notified");
    assert.deepEqual(await notifications.ids(outsider), []);
    const { text } = await notifications.get(bob);
    const order = [
      "<id>",
      "<title",
      'rel="alternate"',
      'rel="mobile"',
      '<category term="GROUP"',
      '<category term="BOARD"',
      "<author>",
      "<updated>",
      "<summary",
      "<cbl:group ",
      "<cbl:confirmed>",
      "<cbl:unconfirmedCommentCount>",
      "<cblNtf:lastAccess>",
      "<cblNtf:icon>",
    ];
    const positions = order.map((needle) => text.indexOf(needle, text.indexOf("<entry>")));
    assert.ok(
      positions.every((p) => p > 0),
      JSON.stringify(positions),
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
      "the documented element order",
    );
    assert.match(text, /<subtitle type="text">/);
    assert.match(
      text,
      /<author><name>Bob<\/name><email>[^<]+<\/email><uri>1:\d+<\/uri><\/author>/,
      "the feed's author is the caller",
    );
  });

  it("brings an edited topic back to the top unconfirmed; only a body edit sets summaryUpdated and summaryUpdator", async () => {
    server.clock.advance(60_000);
    const first = await board.create(alice, team.id, "First", "one");
    server.clock.advance(1000);
    const second = await board.create(alice, team.id, "Second", "two");
    assert.deepEqual((await notifications.ids(bob)).slice(0, 2), [second, first], "newest first");
    assert.equal((await notifications.confirm(bob, [first])).length, 1);
    server.clock.advance(1000);
    await board.update(alice, first, "First, renamed", "one");
    let entry = (await notifications.list(bob))[0]!;
    assert.equal(atomText(entry, "id"), first, "back on top");
    assert.equal(atomText(entry, "title"), "First, renamed");
    assert.equal(atomText(entry, "updated"), now());
    assert.equal(field(entry, "cbl", "confirmed"), "false");
    assert.equal(nsChild(entry, "cbl", "summaryUpdated"), undefined, "the title changed, not the body");
    server.clock.advance(1000);
    await board.update(alice, first, "First, renamed", "one, rewritten");
    entry = (await notifications.list(carol))[0]!;
    assert.equal(atomText(entry, "summary"), "one, rewritten");
    assert.equal(field(entry, "cbl", "summaryUpdated"), now());
    const updator = nsChild(entry, "cbl", "summaryUpdator")!;
    assert.deepEqual([updator.attributes.get("valueString"), updator.attributes.get("id")], ["Alice", `1:${alice.id}`]);
    assert.ok(!(await notifications.ids(alice)).includes(first), "the editor is not notified");
  });

  it("counts comments, names the last one, marks deletions, and confirming resets the count and the comment feed", async () => {
    server.clock.advance(60_000);
    const topic = await board.create(alice, team.id, "Discuss");
    const c1 = await board.comment(bob, topic, "c1");
    server.clock.advance(1000);
    const c2 = await board.comment(carol, topic, "c2");
    const forAlice = entryWithId(await notifications.list(alice), topic);
    assert.equal(field(forAlice, "cbl", "unconfirmedCommentCount"), "2");
    assert.equal(field(forAlice, "cblNtf", "commentId"), c2);
    assert.equal(field(forAlice, "cblNtf", "commentDeleted"), "false");
    assert.equal(atomText(nsChild(forAlice, "atom", "author")!, "name"), "Carol");
    assert.match(
      nsChild(forAlice, "atom", "link")?.attributes.get("href") ?? "",
      /#comment-2$/,
      "it leads to the comment",
    );
    const forCarol = entryWithId(await notifications.list(carol), topic);
    assert.equal(field(forCarol, "cbl", "unconfirmedCommentCount"), "1", "her own comment does not count for her");
    assert.equal(field(forCarol, "cblNtf", "commentId"), c1);
    const comments = async (user: TestUser) =>
      entriesOf(
        (await request(`${server.url}/api/comment/V2?entry=${topic}&unconfirmed=true`, { token: user.token })).xml,
      ).map((e) => atomText(e, "summary"));
    assert.deepEqual(await comments(bob), ["c2"]);

    server.clock.advance(1000);
    const [confirmed] = await notifications.confirm(bob, [topic]);
    assert.equal(field(confirmed!, "cbl", "confirmed"), "true");
    assert.equal(field(confirmed!, "cbl", "unconfirmedCommentCount"), "0");
    assert.equal(field(confirmed!, "cblNtf", "lastAccess"), now());
    assert.deepEqual(await comments(bob), [], "confirming marks the item's comments seen");
    assert.deepEqual(await comments(carol), ["c1"], "only for the one who confirmed");

    server.clock.advance(1000);
    await board.deleteComment(alice, c2);
    const afterDelete = entryWithId(await notifications.list(bob), topic);
    assert.equal(field(afterDelete, "cbl", "confirmed"), "false");
    assert.equal(field(afterDelete, "cblNtf", "commentId"), c2);
    assert.equal(field(afterDelete, "cblNtf", "commentDeleted"), "true");
    assert.equal(field(afterDelete, "cbl", "unconfirmedCommentCount"), "0", "he had seen the deleted comment");
    assert.doesNotMatch(
      nsChild(afterDelete, "atom", "link")?.attributes.get("href") ?? "",
      /#comment/,
      "a deleted comment has no page",
    );
    const carolAfter = entryWithId(await notifications.list(carol), topic);
    assert.equal(
      field(carolAfter, "cbl", "unconfirmedCommentCount"),
      "1",
      "her own deleted comment never counted for her",
    );
    assert.equal(field(carolAfter, "cblNtf", "commentDeleted"), "true");
    server.clock.advance(1000);
    const c3 = await board.comment(carol, topic, "c3");
    const bobAgain = entryWithId(await notifications.list(bob), topic);
    assert.equal(field(bobAgain, "cbl", "unconfirmedCommentCount"), "1");
    assert.equal(field(bobAgain, "cblNtf", "commentId"), c3);
    assert.equal(field(bobAgain, "cblNtf", "commentDeleted"), "false");
    server.clock.advance(1000);
    await board.deleteComment(carol, c3);
    assert.equal(
      field(entryWithId(await notifications.list(bob), topic), "cbl", "unconfirmedCommentCount"),
      "0",
      "an unseen comment deleted counts no more",
    );
  });

  it("notifies of tasks added and changed, and cbl:confirmed of the task list follows the caller's notification", async () => {
    server.clock.advance(60_000);
    const task = await createTaskAsOperator(server, {
      groupId: team.id,
      title: "Ship",
      body: "",
      authorEmail: bob.email,
      due: null,
      priority: "A",
      status: "NOT_STARTED",
      folderId: null,
    });
    const id = `GROUP,1:${team.id},TASK,1:${task.id}`;
    for (const user of [alice, carol]) {
      const entry = (await notifications.list(user))[0]!;
      assert.equal(atomText(entry, "id"), id);
      assert.deepEqual(termsOf(entry), ["GROUP", "TASK"]);
      assert.equal(field(entry, "cblNtf", "icon"), "TASK");
      assert.equal(atomText(nsChild(entry, "atom", "author")!, "name"), "Bob");
    }
    assert.ok(!(await notifications.ids(bob)).includes(id));
    const confirmedInList = async (user: TestUser) =>
      field(
        entriesOf((await request(`${server.url}/api/gwTask/V2?entry=${id}`, { token: user.token })).xml)[0]!,
        "cbl",
        "confirmed",
      );
    assert.equal(await confirmedInList(alice), "false");
    assert.equal(await confirmedInList(bob), "true", "nothing unconfirmed: he wrote it");
    await notifications.confirm(alice, [id]);
    assert.equal(await confirmedInList(alice), "true");

    server.clock.advance(1000);
    await updateTaskAsOperator(server, { ref: { kind: "TASK", groupId: team.id, id: task.id }, body: "Tag and build" });
    for (const user of [alice, bob, carol]) {
      const entry = (await notifications.list(user))[0]!;
      assert.equal(atomText(entry, "id"), id, "an operator's change notifies everyone");
      assert.equal(atomText(entry, "summary"), "Tag and build");
      assert.equal(field(entry, "cbl", "summaryUpdated"), now());
      assert.equal(nsChild(entry, "cbl", "summaryUpdator"), undefined, "no member made it");
    }
    assert.equal(await confirmedInList(alice), "false");
    await notifications.confirm(alice, [id]);
    server.clock.advance(1000);
    await moveTaskAsOperator(server, {
      ref: { kind: "TASK", groupId: team.id, id: task.id },
      place: { kind: "trash" },
    });
    assert.equal(field((await notifications.list(alice))[0]!, "cbl", "confirmed"), "false");
  });

  it("notifies of files added and changed, and embeds the file with embed-attachment=true", async () => {
    server.clock.advance(60_000);
    const file = await addTestFile(server, team, carol, {
      fileName: "spec.txt",
      bytes: Buffer.from("v1"),
      memo: "the spec",
    });
    const id = `GROUP,1:${team.id},CABINET,1:${file.id}`;
    const plain = (await notifications.list(alice))[0]!;
    assert.equal(atomText(plain, "id"), id);
    assert.equal(atomText(plain, "title"), "spec.txt", "no title: the file name");
    assert.equal(atomText(plain, "summary"), "the spec");
    assert.equal(field(plain, "cblNtf", "icon"), "CABINET");
    assert.equal(nsChild(plain, "cbl", "attachment"), undefined, "files only with embed-attachment=true");
    const embedded = nsChild((await notifications.list(alice, "embed-attachment=true"))[0]!, "cbl", "attachment")!;
    assert.deepEqual(
      ["fileName", "id", "size"].map((name) => embedded.attributes.get(name)),
      ["spec.txt", id, "2"],
    );
    assert.ok(!(await notifications.ids(carol)).includes(id));
    server.clock.advance(1000);
    const ref = { kind: "CABINET" as const, groupId: team.id, id: file.id };
    await uploadFileVersionAsOperator(server, {
      ref,
      authorEmail: alice.email,
      fileName: undefined,
      source: Buffer.from("v2!"),
      comment: "",
    });
    assert.equal((await notifications.ids(carol))[0], id);
    assert.equal(atomText(nsChild((await notifications.list(carol))[0]!, "atom", "author")!, "name"), "Alice");
    assert.equal(
      nsChild((await notifications.list(bob, "embed-attachment=TRUE"))[0]!, "cbl", "attachment")?.attributes.get(
        "size",
      ),
      "3",
    );
    server.clock.advance(1000);
    await trashFileAsOperator(server, { ref });
    for (const user of [alice, bob, carol]) assert.equal((await notifications.ids(user))[0], id);
  });

  it("notifies of members joining and leaving on the group's member list; who left loses the group's notifications", async () => {
    const erin = await server.factories.user({ name: "Erin" });
    server.clock.advance(60_000);
    await addMember(server, { groupId: team.id, email: erin.email, manager: false });
    const id = `GROUP,1:${team.id}`;
    for (const user of [alice, bob, carol]) {
      const entry = (await notifications.list(user))[0]!;
      assert.equal(atomText(entry, "id"), id);
      assert.equal(atomText(entry, "title"), "Team");
      assert.deepEqual(termsOf(entry), ["GROUP"]);
      assert.equal(field(entry, "cblNtf", "icon"), "MEMBER_LIST");
      assert.match(atomText(entry, "summary") ?? "", /Erin.*参加/);
      assert.equal(atomText(nsChild(entry, "atom", "author")!, "name"), "Erin");
    }
    assert.deepEqual(await notifications.ids(erin), [], "the one who joined is not notified");
    const topic = await board.create(alice, team.id, "Welcome Erin");
    assert.deepEqual(await notifications.ids(erin), [topic], "a new member hears of what happens next");
    server.clock.advance(1000);
    await removeMember(server, { groupId: team.id, email: erin.email });
    assert.deepEqual(await notifications.ids(erin), [], "who left loses the group's notifications");
    for (const user of [alice, bob, carol]) {
      const entry = (await notifications.list(user))[0]!;
      assert.equal(atomText(entry, "id"), id);
      assert.match(atomText(entry, "summary") ?? "", /Erin.*退会/);
      assert.equal(field(entry, "cbl", "confirmed"), "false");
    }
  });

  it("removes a deleted topic's notifications for everyone", async () => {
    const topic = await board.create(bob, team.id, "Short-lived");
    await board.comment(carol, topic, "hi");
    assert.ok((await notifications.ids(alice)).includes(topic));
    await board.remove(bob, topic);
    for (const user of [alice, bob, carol]) assert.ok(!(await notifications.ids(user)).includes(topic));
  });
});
