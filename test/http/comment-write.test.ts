import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, nsChild, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("POST /api/comment/V2 (XML)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let group: Group;
  let topic: Topic;
  let topicId: string;
  let post: (body: string, token?: string, contentType?: string) => ReturnType<typeof request>;
  const add = (text: string, extra = "") =>
    `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${topicId}</id><entry><summary type="text">${text}</summary>${extra}</entry></feed>`;
  const numbers = async () =>
    entriesOf(
      (await request(`${server.url}/api/comment/V2?entry=${topicId}&max-results=100`, { token: alice.token })).xml,
    ).map((e) => Number(e.attributes.get("{http://schemas.cybozulive.com/common/2010}sequence")));

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    outsider = await f.user();
    group = await f.group([alice, bob, carol]);
    await f.group([outsider]);
    topic = await f.topic(group, bob);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    post = (body, token = alice.token, contentType) =>
      request(`${server.url}/api/comment/V2`, { token, body, contentType });
  });
  after(() => server.close());

  it("adds comments in every shape clients send, answering 200 with the comment", async () => {
    const first = await post(add("hello &amp; welcome"));
    assert.equal(first.status, 200, first.text);
    await assertValidAtom(first.text);
    const entry = entriesOf(first.xml)[0]!;
    assert.equal(atomText(entry, "id"), `${topicId},COMMENT,1`);
    assert.equal(atomText(entry, "summary"), "hello & welcome");
    const afterId = `<feed ${CLIENT_NS}><id>${topicId}</id><cbl:operation type="INSERT"/><entry><summary type="text">re</summary><cblCmnt:replyTo>1</cblCmnt:replyTo></entry></feed>`;
    const reply = await post(afterId, bob.token, "application/atom+xml");
    assert.equal(reply.status, 200, reply.text);
    assert.equal(nsChild(entriesOf(reply.xml)[0]!, "cblCmnt", "replyTo")?.text, "1");
    const noOperation = await post(
      `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">plain</summary></entry></feed>`,
      alice.token,
      "text/xml",
    );
    assert.equal(noOperation.status, 200, noOperation.text);
    const legacy = await request(`${server.url}/api/board/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">via board</summary></entry></feed>`,
    });
    assert.equal(legacy.status, 200, legacy.text);
    assert.deepEqual(await numbers(), [4, 3, 2, 1], "one numbering for both endpoints");
  });

  it("counts the text in characters: 20000 multibyte characters pass, 20001 do not", async () => {
    const ok = await post(add("😀".repeat(10_000) + "漢".repeat(10_000)));
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
    assertError(await post(add("漢".repeat(20_001))), 400, "COMMENT_TEXT_TOO_LONG");
    assertError(await post(add("😀".repeat(20_001))), 400, "COMMENT_TEXT_TOO_LONG");
    assertError(await post(add("   ")), 400, "COMMENT_TEXT_REQUIRED");
    assertError(
      await post(`<feed ${CLIENT_NS}><id>${topicId}</id><entry></entry></feed>`),
      400,
      "COMMENT_TEXT_REQUIRED",
    );
  });

  it("refuses a bad reply, several entries, a missing parent, and other operations", async () => {
    const before = await numbers();
    assertError(await post(add("x", "<cblCmnt:replyTo>999</cblCmnt:replyTo>")), 400, "REPLY_TO_NOT_FOUND");
    assertError(await post(add("x", "<cblCmnt:replyTo>two</cblCmnt:replyTo>")), 400, "INVALID_REPLY_TO");
    const two = `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary>a</summary></entry><entry><summary>b</summary></entry></feed>`;
    assertError(await post(two), 400, "MULTIPLE_ENTRIES");
    assertError(await post(`<feed ${CLIENT_NS}><entry><summary>a</summary></entry></feed>`), 400, "PARENT_ID_REQUIRED");
    const missing = `<feed ${CLIENT_NS}><id>GROUP,1:${group.id},BOARD,1:99999</id><entry><summary>a</summary></entry></feed>`;
    assertError(await post(missing), 404, "TOPIC_NOT_FOUND");
    const foreign = `<feed ${CLIENT_NS}><id>MYPAGE,1:1,MESSAGE,1:1</id><entry><summary>a</summary></entry></feed>`;
    assertError(await post(foreign), 400, "UNSUPPORTED_ITEM");
    assertError(
      await post(
        `<feed ${CLIENT_NS}><cbl:operation type="replace"/><id>${topicId}</id><entry><summary>a</summary></entry></feed>`,
      ),
      400,
      "INVALID_OPERATION",
    );
    // `update` is Kairan's extension (test/http/comment-edit.test.ts): it names the comment in entry/id.
    assertError(
      await post(
        `<feed ${CLIENT_NS}><cbl:operation type="update"/><id>${topicId}</id><entry><summary>a</summary></entry></feed>`,
      ),
      400,
      "ENTRY_ID_REQUIRED",
    );
    assertError(await post("<feed"), 400, "XML_MALFORMED");
    assertError(await post(add("x"), alice.token, "application/json"), 415, "UNSUPPORTED_MEDIA_TYPE");
    assertError(await post("a=b", alice.token, "application/x-www-form-urlencoded"), 415, "UNSUPPORTED_MEDIA_TYPE");
    assert.deepEqual(await numbers(), before, "a rejected write changes nothing");
  });

  it("refuses applications below write, non-members and the wrong group", async () => {
    const commenter = await server.factories.user({ level: "comments" });
    const g = await server.factories.group([commenter]);
    const t = await server.factories.topic(g, commenter);
    const body = `<feed ${CLIENT_NS}><id>GROUP,1:${g.id},BOARD,1:${t.id}</id><entry><summary>a</summary></entry></feed>`;
    assertError(await post(body, commenter.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assertError(await post(add("x"), outsider.token), 403, "GROUP_NOT_JOINED");
    // The topic exists, but in another group than the id says.
    const wrongGroup = `<feed ${CLIENT_NS}><id>GROUP,1:${g.id},BOARD,1:${topic.id}</id><entry><summary>a</summary></entry></feed>`;
    assertError(await post(wrongGroup), 403, "GROUP_NOT_JOINED");
    assertError(await request(`${server.url}/api/comment/V2`, { body: add("x") }), 401, "AUTHENTICATION_REQUIRED");
  });

  it("deletes a comment for its author or a manager, refusing anyone else", async () => {
    const t = await server.factories.topic(group, bob);
    const id = `GROUP,1:${group.id},BOARD,1:${t.id}`;
    const byCarol = await server.factories.comment(t, carol);
    const del = (number: number, token: string) =>
      post(
        `<feed ${CLIENT_NS}><cbl:operation type="DELETE"/><entry><id>${id},COMMENT,${number}</id></entry></feed>`,
        token,
      );
    assertError(await del(byCarol.number, bob.token), 403, "COMMENT_DELETE_FORBIDDEN");
    const deleted = await del(byCarol.number, carol.token);
    assert.equal(deleted.status, 200, deleted.text);
    await assertValidAtom(deleted.text);
    assertError(await del(byCarol.number, carol.token), 404, "COMMENT_NOT_FOUND");
    const byBob = await server.factories.comment(t, bob);
    assert.equal((await del(byBob.number, alice.token)).status, 200, "alice manages the group");
    assertError(
      await post(
        `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>GROUP,1:${group.id},BOARD,1:99999,COMMENT,1</id></entry></feed>`,
      ),
      404,
      "TOPIC_NOT_FOUND",
    );
    assertError(
      await post(`<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`),
      404,
      "COMMENT_NOT_FOUND",
    );
    assertError(
      await post(
        `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>x</id></entry><entry><id>y</id></entry></feed>`,
      ),
      400,
      "MULTIPLE_ENTRIES",
    );
    assertError(
      await post(`<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry></entry></feed>`),
      400,
      "ENTRY_ID_REQUIRED",
    );
    const again = await post(`<feed ${CLIENT_NS}><id>${id}</id><entry><summary>after</summary></entry></feed>`);
    assert.equal(
      atomText(entriesOf(again.xml)[0]!, "id"),
      `${id},COMMENT,3`,
      "numbers of deleted comments are never reused",
    );
  });

  it("gives 50 concurrent comments 50 distinct numbers", async () => {
    const t = await server.factories.topic(group, bob);
    const id = `GROUP,1:${group.id},BOARD,1:${t.id}`;
    const users = [alice, bob, carol];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(`<feed ${CLIENT_NS}><id>${id}</id><entry><summary>n${i}</summary></entry></feed>`, users[i % 3]!.token),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(50).fill(200),
    );
    const returned = answers.map((a) =>
      entriesOf(a.xml)[0]!.attributes.get("{http://schemas.cybozulive.com/common/2010}sequence"),
    );
    assert.equal(new Set(returned).size, 50);
    const listed = entriesOf(
      (await request(`${server.url}/api/comment/V2?entry=${id}&max-results=100`, { token: alice.token })).xml,
    );
    assert.deepEqual(
      listed.map((e) => Number(e.attributes.get("{http://schemas.cybozulive.com/common/2010}sequence"))),
      Array.from({ length: 50 }, (_, i) => 50 - i),
    );
  });
});
