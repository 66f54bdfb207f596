import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

const toggle = (operation: string | undefined, id: string, extraEntry = "") =>
  `<feed ${CLIENT_NS}>${operation ? `<cbl:operation type="${operation}"/>` : ""}<entry><id>${id}</id></entry>${extraEntry}</feed>`;

describeEachBackend("likes (/api/good/V2) and favorites (/api/star/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let topic: Topic;
  let topicId: string;
  let commentId: string;
  const post = (path: "good" | "star", body: string, token = alice.token) =>
    request(`${server.url}/api/${path}/V2`, { token, body });
  const get = (query: string, token = alice.token) => request(`${server.url}/api/${query}`, { token });

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob <B>" });
    outsider = await f.user();
    group = await f.group([alice, bob], { name: "Team" });
    await f.group([outsider]);
    topic = await f.topic(group, bob, { title: "Launch", body: "Details" });
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    await f.comment(topic, bob, { body: "first" });
    commentId = `${topicId},COMMENT,1`;
  });
  after(() => server.close());

  it("likes and unlikes topics and comments; repeating either is a harmless 200", async () => {
    for (const [op, token] of [
      ["INSERT", alice.token],
      ["insert", alice.token],
      [undefined, bob.token],
    ] as const) {
      const answer = await post("good", toggle(op, commentId), token);
      assert.equal(answer.status, 200, answer.text);
      await assertValidAtom(answer.text);
      assert.equal(atomText(entriesOf(answer.xml)[0]!, "id"), commentId);
    }
    assert.equal((await post("good", toggle("insert", topicId))).status, 200);
    const likers = await get(`good/V2?id=${commentId}`);
    assert.equal(likers.status, 200, likers.text);
    await assertValidAtom(likers.text);
    const entry = entriesOf(likers.xml)[0]!;
    assert.equal(entriesOf(likers.xml).length, 1);
    assert.equal(atomText(entry, "id"), commentId);
    assert.equal(nsChild(entry, "cblGood", "set")?.text, "true");
    const who = entry.children.filter((c) => c.local === "who");
    assert.deepEqual(
      who.map((w) => [w.attributes.get("valueString"), w.attributes.get("id")]),
      [
        ["Alice", `1:${alice.id}`],
        ["Bob <B>", `1:${bob.id}`],
      ],
    );
    assert.match(likers.text, /<cbl:who valueString="Bob &lt;B&gt;" id="1:\d+"\/>/, "valueString before id");
    assert.deepEqual(
      entry.children.filter((c) => c.local === "category").map((c) => c.attributes.get("term")),
      ["GROUP", "BOARD", "COMMENT", "GOOD"],
    );
    assert.equal((await post("good", toggle("delete", commentId), bob.token)).status, 200);
    assert.equal(
      (await post("good", toggle("delete", commentId), bob.token)).status,
      200,
      "unliking twice is harmless",
    );
    const afterUnlike = entriesOf((await get(`good/V2?id=${commentId}`, bob.token)).xml)[0]!;
    assert.equal(nsChild(afterUnlike, "cblGood", "set")?.text, "false");
    assert.equal(afterUnlike.children.filter((c) => c.local === "who").length, 1);
  });

  it("shows likes and favorites the same in the comment feed, the board's embedded comments, likers and favorites", async () => {
    const t = await server.factories.topic(group, alice, { title: "Shared" });
    const tid = `GROUP,1:${group.id},BOARD,1:${t.id}`;
    await server.factories.comment(t, alice, { body: "liked" });
    const cid = `${tid},COMMENT,1`;
    await post("good", toggle("insert", cid), alice.token);
    await post("good", toggle("insert", cid), bob.token);
    await post("star", toggle("insert", cid), alice.token);
    const fields = (e: XmlElement) => [
      nsChild(e, "cblGood", "set")?.text,
      nsChild(e, "cblGood", "count")?.text,
      nsChild(e, "cblStar", "set")?.text,
    ];
    for (const [user, expected] of [
      [alice, ["true", "2", "true"]],
      [bob, ["true", "2", "false"]],
    ] as const) {
      const feed = await get(`comment/V2?entry=${tid}`, user.token);
      await assertValidAtom(feed.text);
      assert.deepEqual(fields(entriesOf(feed.xml)[0]!), expected);
      const board = await get(`board/V2?entry=${tid}&embed-comment=true`, user.token);
      await assertValidAtom(board.text);
      const sub = nsChild(
        nsChild(nsChild(entriesOf(board.xml)[0]!, "cbl", "comments")!, "cbl", "feedLink")!,
        "atom",
        "feed",
      )!;
      assert.deepEqual(fields(entriesOf(sub)[0]!), expected, "embedded comments agree");
      const likers = entriesOf((await get(`good/V2?id=${cid}`, user.token)).xml)[0]!;
      assert.equal(likers.children.filter((c) => c.local === "who").length, 2);
      const favorites = entriesOf((await get("star/V2", user.token)).xml).map((e) => atomText(e, "id"));
      assert.equal(favorites.includes(cid), expected[2] === "true");
    }
  });

  it("lists favorites newest first with the documented fields, paging, and id=", async () => {
    const carol = await server.factories.user({ name: "Carol" });
    const g = await server.factories.group([carol], { name: "Mine" });
    const topics = [];
    for (let i = 0; i < 3; i++) topics.push(await server.factories.topic(g, carol, { title: `t${i}`, body: `b${i}` }));
    for (const t of topics) {
      server.clock.advance(1000);
      assert.equal((await post("star", toggle("insert", `GROUP,1:${g.id},BOARD,1:${t.id}`), carol.token)).status, 200);
    }
    await post("star", toggle("insert", `GROUP,1:${g.id},BOARD,1:${topics[0]!.id}`), carol.token);
    const list = await get("star/V2", carol.token);
    assert.equal(list.status, 200, list.text);
    await assertValidAtom(list.text);
    const entries = entriesOf(list.xml);
    assert.deepEqual(
      entries.map((e) => atomText(e, "title")),
      ["t2", "t1", "t0"],
      "newest favorite first, each once",
    );
    const first = entries[0]!;
    assert.equal(atomText(first, "id"), `GROUP,1:${g.id},BOARD,1:${topics[2]!.id}`);
    assert.equal(atomText(first, "summary"), "b2");
    assert.deepEqual(
      first.children.filter((c) => c.local === "link").map((c) => c.attributes.get("rel")),
      ["alternate", "mobile"],
    );
    assert.deepEqual(
      first.children.filter((c) => c.local === "category").map((c) => c.attributes.get("term")),
      ["GROUP", "BOARD", "STAR"],
    );
    assert.equal(nsChild(first, "cbl", "group")?.attributes.get("valueString"), "Mine");
    assert.ok(atomText(first, "updated"));
    assert.match(list.text, /<author><name\/><\/author>/, "an empty author, with the name Atom requires");
    const paged = async (query: string) =>
      entriesOf((await get(`star/V2?${query}`, carol.token)).xml).map((e) => atomText(e, "title"));
    assert.deepEqual(await paged("max-results=1&start-index=1"), ["t1"]);
    assert.deepEqual(
      await paged(`id=GROUP,1:${g.id},BOARD,1:${topics[0]!.id}&max-results=0`),
      ["t0"],
      "id= ignores paging",
    );
    const unstarred = await server.factories.topic(g, carol);
    assert.deepEqual(await paged(`id=GROUP,1:${g.id},BOARD,1:${unstarred.id}`), []);
    assertError(await get("star/V2?max-results=0", carol.token), 400, "INVALID_MAX_RESULTS");
    await post("star", toggle("delete", `GROUP,1:${g.id},BOARD,1:${topics[1]!.id}`), carol.token);
    await post("star", toggle("delete", `GROUP,1:${g.id},BOARD,1:${topics[1]!.id}`), carol.token);
    assert.deepEqual(await paged(""), ["t2", "t0"]);
  });

  it("refuses missing and foreign items (404), several entries (400), non-members (403), and lets read-level apps in", async () => {
    for (const path of ["good", "star"] as const) {
      assertError(await post(path, toggle("INSERT", "MYPAGE,1:1,MP_SCHEDULE,1:1")), 404, "NOT_FOUND");
      assertError(await post(path, toggle("insert", `GROUP,1:${group.id},GW_SCHEDULE,1:99999`)), 404, "NOT_FOUND");
      assertError(await post(path, toggle("insert", "MYPAGE,1:1,MESSAGE,1:1")), 404, "ITEM_NOT_FOUND");
      assertError(await post(path, toggle("insert", `GROUP,1:${group.id},BOARD,1:99999`)), 404, "TOPIC_NOT_FOUND");
      assertError(await post(path, toggle("insert", `${topicId},COMMENT,999`)), 404, "COMMENT_NOT_FOUND");
      assertError(await post(path, toggle("insert", `GROUP,1:${group.id},TASK,1:99999`)), 404, "TASK_NOT_FOUND");
      assertError(await post(path, toggle("insert", `GROUP,1:${group.id},CABINET,1:99999`)), 404, "FILE_NOT_FOUND");
      assertError(await post(path, toggle("insert", `GROUP,1:${group.id}`)), 404, "ITEM_NOT_FOUND");
      assertError(
        await post(path, toggle("insert", topicId, `<entry><id>${commentId}</id></entry>`)),
        400,
        "MULTIPLE_ENTRIES",
      );
      assertError(await post(path, toggle("insert", "junk")), 400, "INVALID_ID");
      assertError(await post(path, toggle("update", topicId)), 400, "INVALID_OPERATION");
      assertError(await post(path, toggle("insert", topicId), outsider.token), 403, "GROUP_NOT_JOINED");
    }
    assertError(await get(`good/V2?id=${topicId}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await get("good/V2?id=MYPAGE,1:1,MP_SCHEDULE,1:1"), 404, "NOT_FOUND");
    assertError(await get("good/V2"), 400, "PARAMETER_REQUIRED");
    assertError(await get(`star/V2?id=${topicId}`, outsider.token), 403, "GROUP_NOT_JOINED");
    const reader = await server.factories.user({ level: "read" });
    const g = await server.factories.group([reader]);
    const t = await server.factories.topic(g, reader);
    const id = `GROUP,1:${g.id},BOARD,1:${t.id}`;
    assert.equal((await post("good", toggle("insert", id), reader.token)).status, 200);
    assert.equal((await post("star", toggle("insert", id), reader.token)).status, 200);
    assert.equal(entriesOf((await get("star/V2", reader.token)).xml).length, 1);
  });

  it("forgets likes and favorites of a deleted comment and topic", async () => {
    const t = await server.factories.topic(group, alice);
    const tid = `GROUP,1:${group.id},BOARD,1:${t.id}`;
    const c = await server.factories.comment(t, alice);
    const cid = `${tid},COMMENT,${c.number}`;
    for (const id of [tid, cid]) {
      await post("good", toggle("insert", id));
      await post("star", toggle("insert", id));
    }
    const starred = async () => entriesOf((await get("star/V2?max-results=100")).xml).map((e) => atomText(e, "id"));
    assert.ok((await starred()).includes(cid));
    await request(`${server.url}/api/comment/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${cid}</id></entry></feed>`,
    });
    assert.ok(!(await starred()).includes(cid));
    assert.deepEqual(await server.store.read((tx) => tx.likes.likers({ kind: "COMMENT", id: c.id })), []);
    await request(`${server.url}/api/board/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${tid}</id></entry></feed>`,
    });
    assert.ok(!(await starred()).includes(tid));
    assert.deepEqual(await server.store.read((tx) => tx.likes.likers({ kind: "BOARD", id: t.id })), []);
  });
});
