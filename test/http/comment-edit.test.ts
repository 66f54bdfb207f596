// `POST /api/comment/V2` with `cbl:operation type="update"` (a Kairan extension, docs/api.md
// "Comments"): a comment's author changes its text; the feeds show the new text, `updated` becomes
// the edit's time and `published` keeps when it was written. Nobody else may, nothing else changes.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("POST /api/comment/V2, operation update: editing one's comment", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let topicId: string;
  let commentId: string;
  const post = (body: string, token: string) => request(`${server.url}/api/comment/V2`, { token, body });
  const update = (id: string, text: string) =>
    `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>${id}</id><summary type="text">${text}</summary></entry></feed>`;
  const comments = async (token = alice.token) => request(`${server.url}/api/comment/V2?entry=${topicId}`, { token });

  before(async () => {
    server = await startTestServer(backend);
    const f = server.factories;
    alice = await f.user({ name: "Alice" });
    bob = await f.user({ name: "Bob" });
    carol = await f.user({ name: "Carol" });
    outsider = await f.user({ name: "Outsider" });
    const group = await f.group([alice, bob, carol]);
    await f.group([outsider]);
    const topic = await f.topic(group, bob);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const made = await post(
      `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">first words</summary></entry></feed>`,
      alice.token,
    );
    assert.equal(made.status, 200, made.text);
    commentId = atomText(entriesOf(made.xml)[0]!, "id")!;
  });
  after(() => server.close());

  it("lets the author change the text: the answer and the feed show it, updated is the edit, published the writing", async () => {
    const before = entriesOf((await comments()).xml)[0]!;
    const written = atomText(before, "updated")!;
    assert.equal(atomText(before, "published"), undefined, "a comment never edited has no published");
    const etag = (await comments()).headers.get("etag");
    server.clock.advance(60_000);
    const answer = await post(update(commentId, "better words &amp; more"), alice.token);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    assert.equal(atomText(entry, "id"), commentId);
    assert.equal(atomText(entry, "summary"), "better words & more");
    const feed = await comments();
    assert.notEqual(feed.headers.get("etag"), etag, "the feed changed");
    const listed = entriesOf(feed.xml)[0]!;
    assert.equal(atomText(listed, "summary"), "better words & more");
    assert.equal(atomText(listed, "published"), written);
    assert.equal(Date.parse(atomText(listed, "updated")!) - Date.parse(written), 60_000);
    assert.equal(entriesOf(feed.xml).length, 1, "still one comment: an edit adds none");
  });

  it("refuses everyone but the author, the group's managers included, and changes nothing", async () => {
    assertError(await post(update(commentId, "not mine"), bob.token), 403, "COMMENT_EDIT_FORBIDDEN");
    assertError(await post(update(commentId, "not mine"), outsider.token), 403, "GROUP_NOT_JOINED");
    const reader = await server.factories.sameUserAt(alice, "read");
    assertError(await post(update(commentId, "no write level"), reader.token), 403, "ACCESS_LEVEL_INSUFFICIENT");
    assertError(await post(update(`${topicId},COMMENT,99`, "none"), alice.token), 404, "COMMENT_NOT_FOUND");
    assert.equal(atomText(entriesOf((await comments()).xml)[0]!, "summary"), "better words & more");
  });

  it(`takes ${LIMITS.commentMaxChars} characters and refuses one more, or none`, async () => {
    assertError(
      await post(update(commentId, "字".repeat(LIMITS.commentMaxChars + 1)), alice.token),
      400,
      "COMMENT_TEXT_TOO_LONG",
    );
    assertError(await post(update(commentId, "  "), alice.token), 400, "COMMENT_TEXT_REQUIRED");
    assert.equal(atomText(entriesOf((await comments()).xml)[0]!, "summary"), "better words & more");
    const longest = "字".repeat(LIMITS.commentMaxChars);
    assert.equal((await post(update(commentId, longest), alice.token)).status, 200);
    assert.equal(atomText(entriesOf((await comments()).xml)[0]!, "summary"), longest);
  });

  it("tells a member the new text names for the first time, and nobody twice", async () => {
    const mentions = async (user: TestUser) =>
      entriesOf((await request(`${server.url}/api/notification/V2?category=MENTION`, { token: user.token })).xml)
        .length;
    assert.equal(await mentions(carol), 0);
    assert.equal((await post(update(commentId, "over to @Carol"), alice.token)).status, 200);
    assert.equal(await mentions(carol), 1, "named by the edit");
    assert.equal((await post(update(commentId, "over to @Carol and @Bob"), alice.token)).status, 200);
    assert.equal(await mentions(carol), 1, "named again: no second notification");
    assert.equal(await mentions(bob), 1);
  });

  it("names the operations it knows when given another", async () => {
    const answer = await post(
      `<feed ${CLIENT_NS}><cbl:operation type="replace"/><entry><id>${commentId}</id><summary>x</summary></entry></feed>`,
      alice.token,
    );
    assertError(answer, 400, "INVALID_OPERATION");
    assert.match(answer.text, /insert, update, delete/);
  });
});
