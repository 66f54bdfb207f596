import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import { utcTimestamp } from "../../src/atom/build.js";
import type { Group } from "../../src/domain/group.js";
import { createTaskAsOperator } from "../../src/services/task/task-admin.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile } from "../support/files.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { BoardClient, NotificationClient, entryWithId, field, idsOf, termsOf } from "../support/notifications.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** The likers an entry names, as [name, uri] pairs. */
function authorsOf(entry: XmlElement): [string | undefined, string | undefined][] {
  return entry.children
    .filter((c) => c.local === "author")
    .map((author) => [atomText(author, "name"), atomText(author, "uri")]);
}

describeEachBackend("like notifications (/api/goodNotification/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let team: Group;
  let likes: NotificationClient;
  let board: BoardClient;
  let topic: string;
  let comment: string;
  const totalCount = async (user: TestUser, query = "") => field(await likes.feed(user, query), "cbl", "totalCount");

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    team = await f.group([alice, bob, carol], { name: "Team" });
    likes = new NotificationClient(server, "goodNotification");
    board = new BoardClient(server);
    topic = await board.create(alice, team.id, "Launch", "the plan");
    comment = await board.comment(alice, topic, "my comment");
  });
  after(() => server.close());

  it("tells the author of a liked item who liked it, one author per liker, newest first", async () => {
    server.clock.advance(60_000);
    await board.like(bob, topic);
    const liked = utcTimestamp(server.clock.now());
    const first = await likes.list(alice);
    assert.equal(first.length, 1);
    let entry = first[0];
    assert.equal(atomText(entry!, "id"), topic);
    assert.equal(atomText(entry!, "title"), "Launch");
    assert.equal(atomText(entry!, "summary"), "the plan");
    assert.deepEqual(termsOf(entry!), ["GROUP", "BOARD", "GOOD"]);
    assert.deepEqual(
      entry!.children.filter((c) => c.local === "link").map((c) => c.attributes.get("rel")),
      ["alternate", "mobile"],
    );
    assert.deepEqual(authorsOf(entry!), [["Bob", `1:${bob.id}`]]);
    assert.equal(atomText(entry!, "updated"), liked);
    assert.equal(field(entry!, "cbl", "confirmed"), "false");
    assert.equal(nsChild(entry!, "cbl", "group")?.attributes.get("valueString"), "Team");
    assert.equal(await totalCount(alice), "1");
    assert.deepEqual(await likes.ids(bob), [], "only the item's author hears of it");

    server.clock.advance(1000);
    await board.like(carol, topic);
    [entry] = await likes.list(alice);
    assert.deepEqual(authorsOf(entry!), [
      ["Bob", `1:${bob.id}`],
      ["Carol", `1:${carol.id}`],
    ]);
    assert.equal(atomText(entry!, "updated"), utcTimestamp(server.clock.now()));

    server.clock.advance(1000);
    await board.like(bob, comment);
    const entries = await likes.list(alice);
    assert.deepEqual(idsOf(entries), [comment, topic]);
    const onComment = entries[0]!;
    assert.deepEqual(termsOf(onComment), ["GROUP", "BOARD", "COMMENT", "GOOD"]);
    assert.equal(atomText(onComment, "title"), "Launch", "a comment shows its topic's title");
    assert.equal(atomText(onComment, "summary"), "my comment");
    assert.equal(await totalCount(alice), "2");
  });

  it("leaves a liked comment's text out below the comments level, and keeps an item's body", async () => {
    const dave = await server.factories.user({ name: "Dave", level: "read" });
    const daveWriting = await server.factories.sameUserAt(dave, "Z");
    const group = await server.factories.group([daveWriting, bob], { name: "Pair" });
    const ownTopic = await board.create(daveWriting, group.id, "Dave's", "dave's body");
    const ownComment = await board.comment(daveWriting, ownTopic, "dave's private comment");
    await board.like(bob, ownTopic);
    await board.like(bob, ownComment);
    const summaries = async (user: TestUser) =>
      Object.fromEntries((await likes.list(user)).map((entry) => [atomText(entry, "id"), atomText(entry, "summary")]));
    assert.deepEqual(await summaries(dave), { [ownTopic]: "dave's body", [ownComment]: "" });
    assert.deepEqual(await summaries(daveWriting), {
      [ownTopic]: "dave's body",
      [ownComment]: "dave's private comment",
    });
  });

  it("changes nothing for a repeated like or a like of one's own item", async () => {
    const before = await likes.list(alice);
    server.clock.advance(1000);
    await board.like(bob, topic);
    await board.like(alice, topic);
    const after = await likes.list(alice);
    assert.deepEqual(
      after.map((e) => atomText(e, "updated")),
      before.map((e) => atomText(e, "updated")),
    );
    assert.deepEqual(
      authorsOf(entryWithId(after, topic)).map(([name]) => name),
      ["Bob", "Carol"],
      "the author is never among the likers",
    );
  });

  it("filters unconfirmed ones, confirms up to 100, answers confirmed ids again and ignores unknown ones", async () => {
    assert.deepEqual(await likes.ids(alice, "unconfirmed=true"), [comment, topic]);
    const confirmed = await likes.confirm(alice, [
      topic,
      topic,
      `GROUP,1:${team.id},BOARD,1:999999`,
      "nonsense",
      `${topic},COMMENT,99`,
    ]);
    assert.deepEqual(idsOf(confirmed), [topic]);
    assert.equal(field(confirmed[0]!, "cbl", "confirmed"), "true");
    assert.deepEqual(await likes.ids(alice, "unconfirmed=TRUE"), [comment]);
    assert.equal(await totalCount(alice, "unconfirmed=true"), "1");
    assert.equal(await totalCount(alice), "2");
    const again = await likes.confirm(alice, [topic]);
    assert.deepEqual(idsOf(again), [topic], "already confirmed: answered again, unchanged");
    assert.equal(field(again[0]!, "cbl", "confirmed"), "true");
    assert.deepEqual(await likes.ids(alice, "unconfirmed=true"), [comment]);
    assertError(
      await likes.post(
        alice,
        Array.from({ length: 101 }, () => comment),
      ),
      400,
      "TOO_MANY_ENTRIES",
    );
    assert.deepEqual(await likes.ids(alice, "unconfirmed=true"), [comment], "nothing was confirmed");
    assert.deepEqual(
      idsOf(
        await likes.confirm(
          alice,
          Array.from({ length: 100 }, () => comment),
        ),
      ),
      [comment],
      "100 is allowed",
    );
    assert.deepEqual(await likes.ids(alice, "max-results=1&start-index=1"), [topic]);
    assertError(await likes.get(alice, "max-results=abc"), 400, "INVALID_MAX_RESULTS");
  });

  it("a new like makes it unconfirmed again; unliking removes the liker, the last one the notification", async () => {
    await board.like(bob, topic, false);
    let entry = entryWithId(await likes.list(alice), topic);
    assert.deepEqual(
      authorsOf(entry).map(([name]) => name),
      ["Carol"],
    );
    assert.equal(field(entry, "cbl", "confirmed"), "true", "an unlike is no news");
    server.clock.advance(1000);
    await board.like(bob, topic);
    entry = entryWithId(await likes.list(alice), topic);
    assert.deepEqual(
      authorsOf(entry).map(([name]) => name),
      ["Carol", "Bob"],
      "first liker first",
    );
    assert.equal(field(entry, "cbl", "confirmed"), "false");
    await board.like(bob, topic, false);
    await board.like(carol, topic, false);
    assert.deepEqual(await likes.ids(alice), [comment], "nobody likes it any more");
  });

  it("covers tasks and files, and a deleted item takes its like notifications along", async () => {
    const task = await createTaskAsOperator(server, {
      groupId: team.id,
      title: "Ship",
      body: "",
      authorEmail: alice.email,
      due: null,
      priority: "A",
      status: "NOT_STARTED",
      folderId: null,
    });
    const taskId = `GROUP,1:${team.id},TASK,1:${task.id}`;
    const file = await addTestFile(server, team, alice, { title: "Spec" });
    const fileId = `GROUP,1:${team.id},CABINET,1:${file.id}`;
    server.clock.advance(1000);
    await board.like(carol, taskId);
    server.clock.advance(1000);
    await board.like(bob, fileId);
    const entries = await likes.list(alice);
    assert.deepEqual(idsOf(entries).slice(0, 2), [fileId, taskId]);
    assert.deepEqual(termsOf(entries[0]!), ["GROUP", "CABINET", "GOOD"]);
    assert.equal(atomText(entries[0]!, "title"), "Spec");
    assert.deepEqual(termsOf(entries[1]!), ["GROUP", "TASK", "GOOD"]);

    await board.like(carol, topic);
    assert.ok((await likes.ids(alice)).includes(topic));
    await board.deleteComment(alice, comment);
    assert.ok(!(await likes.ids(alice)).includes(comment), "the deleted comment's notification is gone");
    await board.remove(alice, topic);
    assert.ok(!(await likes.ids(alice)).includes(topic), "the deleted topic's too");
    const raw = await request(`${server.url}/api/goodNotification/V2`, { token: alice.token });
    assert.equal(entriesOf(raw.xml).length, 2);
    assert.match(raw.text, /<cbl:totalCount>2<\/cbl:totalCount>/);
  });
});
