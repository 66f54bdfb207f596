import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/comment/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let group: Group;
  let topic: Topic;
  let topicId: string;
  let comments: (query: string, token?: string) => ReturnType<typeof request>;

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    outsider = await f.user();
    group = await f.group([alice, bob]);
    topic = await f.topic(group, alice, { title: "Plans" });
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    for (let i = 1; i <= 5; i++) {
      server.clock.advance(1000);
      await f.comment(topic, i % 2 === 0 ? alice : bob, { body: `c${i}`, replyTo: i === 3 ? 1 : undefined });
    }
    comments = (query, token = alice.token) => request(`${server.url}/api/comment/V2?${query}`, { token });
  });
  after(() => server.close());

  it("lists a topic's comments newest first with every documented field, valid Atom", async () => {
    const answer = await comments(`entry=${topicId}`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers.get("content-type"), "application/atom+xml; charset=utf-8");
    await assertValidAtom(answer.text);
    const feed = answer.xml;
    assert.equal(atomText(feed, "id"), topicId);
    assert.equal(atomText(feed, "title"), "Plans");
    assert.equal(nsChild(feed, "cblCmnt", "olderCommentExists")?.text, "false");
    assert.equal(nsChild(feed, "cblCmnt", "newerCommentExists")?.text, "false");
    assert.match(
      answer.text,
      /<updated>[^<]+<\/updated><cblCmnt:olderCommentExists>false<\/cblCmnt:olderCommentExists><cblCmnt:newerCommentExists>false/,
    );
    const entries = entriesOf(feed);
    assert.deepEqual(
      entries.map((e) => atomText(e, "summary")),
      ["c5", "c4", "c3", "c2", "c1"],
    );
    const c3 = entries[2]!;
    assert.equal(c3.attributes.get("{http://schemas.cybozulive.com/common/2010}sequence"), "3");
    assert.equal(atomText(c3, "id"), `${topicId},COMMENT,3`);
    assert.equal(atomText(c3, "title"), "");
    const author = nsChild(c3, "atom", "author")!;
    assert.equal(atomText(author, "name"), "Bob");
    assert.equal(atomText(author, "uri"), `1:${bob.id}`);
    assert.equal(nsChild(c3, "cblCmnt", "replyTo")?.text, "1");
    assert.equal(nsChild(entries[0]!, "cblCmnt", "replyTo"), undefined);
    assert.equal(nsChild(c3, "cblGood", "set")?.text, "false");
    assert.equal(nsChild(c3, "cblGood", "count")?.text, "0");
    assert.equal(nsChild(c3, "cblStar", "set")?.text, "false");
    assert.equal(atomText(c3, "content"), undefined, "content only in the embedded form");
  });

  it("pages, and says whether older and newer comments lie beyond the page", async () => {
    const page = async (query: string) => {
      const answer = await comments(`entry=${topicId}&${query}`);
      assert.equal(answer.status, 200, answer.text);
      return {
        bodies: entriesOf(answer.xml).map((e) => atomText(e, "summary")),
        older: nsChild(answer.xml, "cblCmnt", "olderCommentExists")?.text,
        newer: nsChild(answer.xml, "cblCmnt", "newerCommentExists")?.text,
      };
    };
    assert.deepEqual(await page("max-results=2"), { bodies: ["c5", "c4"], older: "true", newer: "false" });
    assert.deepEqual(await page("start-index=2&max-results=2"), { bodies: ["c3", "c2"], older: "true", newer: "true" });
    assert.deepEqual(await page("start-index=4&max-results=2"), { bodies: ["c1"], older: "false", newer: "true" });
    assert.deepEqual(await page("start-index=9"), { bodies: [], older: "false", newer: "true" });
    assertError(await comments(`entry=${topicId}&max-results=0`), 400, "INVALID_MAX_RESULTS");
  });

  it("unconfirmed=true keeps others' comments written after the caller's last confirmation", async () => {
    const f = server.factories;
    const carol = await f.user({ name: "Carol" });
    const dave = await f.user({ name: "Dave" });
    const g = await f.group([carol, dave]);
    const t = await f.topic(g, carol);
    const id = `GROUP,1:${g.id},BOARD,1:${t.id}`;
    server.clock.advance(1000);
    await f.comment(t, dave, { body: "d1" });
    await f.comment(t, carol, { body: "mine" });
    const unconfirmed = async () =>
      entriesOf((await comments(`entry=${id}&unconfirmed=TRUE`, carol.token)).xml).map((e) => atomText(e, "summary"));
    assert.deepEqual(await unconfirmed(), ["d1"], "never confirmed: every comment by others, never the caller's own");
    server.clock.advance(1000);
    await server.store.transaction((tx) =>
      tx.commentReads.confirm(carol.id, { kind: "BOARD", groupId: g.id, id: t.id }, server.clock.now()),
    );
    assert.deepEqual(await unconfirmed(), []);
    server.clock.advance(1000);
    await f.comment(t, dave, { body: "d2" });
    await f.comment(t, carol, { body: "mine again" });
    assert.deepEqual(await unconfirmed(), ["d2"]);
    const all = entriesOf((await comments(`entry=${id}`, carol.token)).xml);
    assert.equal(all.length, 4, "without the flag every comment is listed");
  });

  it("needs the comments level, membership, an existing parent and a well-formed id", async () => {
    const reader = await server.factories.user({ level: "read" });
    const g = await server.factories.group([reader]);
    const t = await server.factories.topic(g, reader);
    assertError(
      await comments(`entry=GROUP,1:${g.id},BOARD,1:${t.id}`, reader.token),
      403,
      "ACCESS_LEVEL_INSUFFICIENT",
    );
    assertError(await comments(`entry=${topicId}`, outsider.token), 403, "GROUP_NOT_JOINED");
    assertError(await comments(`entry=GROUP,1:${group.id},BOARD,1:99999`), 404, "TOPIC_NOT_FOUND");
    assertError(await comments(`entry=GROUP,1:${group.id},TASK,1:99999`), 404, "TASK_NOT_FOUND");
    assertError(await comments(`entry=GROUP,1:${group.id},CABINET,1:99999`), 404, "FILE_NOT_FOUND");
    assertError(await comments(`entry=GROUP,1:99999,BOARD,1:1`), 404, "GROUP_NOT_FOUND");
    assertError(await comments(`entry=GROUP,1:${group.id},GW_SCHEDULE,1:99999`), 404, "NOT_FOUND");
    assertError(await comments("entry=MYPAGE,1:1,MP_SCHEDULE,1:1"), 404, "NOT_FOUND");
    assertError(await comments("entry=MYPAGE,1:1,MESSAGE,1:1"), 400, "UNSUPPORTED_ITEM");
    assertError(await comments("entry=nonsense"), 400, "INVALID_ID");
    assertError(await comments(""), 400, "PARAMETER_REQUIRED");
    assertError(await request(`${server.url}/api/comment/V2?entry=${topicId}`), 401, "AUTHENTICATION_REQUIRED");
    const put = await request(`${server.url}/api/comment/V2`, { method: "PUT", token: alice.token });
    assertError(put, 405, "METHOD_NOT_ALLOWED");
    assert.equal(put.headers.get("allow"), "GET, POST");
  });
});
