import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("chat messages (/api/comet/mpChatPush/V2, /api/comment/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let chat: ChatClient;
  let room: number;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    await server.factories.group([alice, bob], { name: "Team" });
    chat = new ChatClient(server);
    room = await chat.theme(alice, "Talk", [bob]);
  });
  after(() => server.close());

  it("answers a push with the message, its id from the pusher's side, numbered per room", async () => {
    const own = await chat.theme(bob, "Other", [alice]);
    const first = await chat.say(alice, own, "one");
    assert.equal(atomText(first, "id"), `${roomId(alice, own)},COMMENT,1`);
    assert.equal(atomText(first, "summary"), "one");
    const second = await chat.say(bob, own, "two");
    assert.equal(atomText(second, "id"), `${roomId(bob, own)},COMMENT,2`);
    const listed = entriesOf((await chat.messages(alice, own)).xml);
    assert.deepEqual(
      listed.map((e) => atomText(e, "id")),
      [`${roomId(alice, own)},COMMENT,2`, `${roomId(alice, own)},COMMENT,1`],
    );
    assert.equal(
      listed[0]!.children.find((c) => c.local === "author")?.children.find((c) => c.local === "name")?.text,
      "Bob",
    );
  });

  it("takes cbl:operation before or after the id, and refuses a missing or over-long text", async () => {
    const after = `<feed ${CHAT_NS}><id>${roomId(alice, room)}</id><cbl:operation type="insert"/><entry><summary type="text">late op</summary></entry></feed>`;
    assert.equal((await chat.pushRaw(alice, after)).status, 200);
    assert.equal((await chat.push(alice, room, "x".repeat(3000))).status, 200, "3,000 characters pass");
    assertError(await chat.push(alice, room, "x".repeat(3001)), 400, "CHAT_MESSAGE_TOO_LONG");
    assertError(await chat.push(alice, room, "  "), 400, "CHAT_MESSAGE_MISSING");
  });

  it("reads a bare & literally on the push endpoint alone; DOCTYPE stays refused", async () => {
    const message = await chat.say(alice, room, "Tom & Jerry &amp; &#65; R&D");
    assert.equal(atomText(message, "summary"), "Tom & Jerry & A R&D");
    const doctype = `<!DOCTYPE feed [<!ENTITY x "boom">]><feed ${CHAT_NS}><id>${roomId(alice, room)}</id><entry><summary>&x;</summary></entry></feed>`;
    assertError(await chat.pushRaw(alice, doctype), 400, "XML_DOCTYPE_FORBIDDEN");
    assertError(await chat.push(alice, room, "&undeclared;"), 400, "XML_MALFORMED");
    const elsewhere = await request(`${server.url}/api/comment/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><id>GROUP,1:1,BOARD,1:1</id><entry><summary>Tom & Jerry</summary></entry></feed>`,
    });
    assertError(elsewhere, 400, "XML_MALFORMED");
  });

  it("refuses chat messages written through the comment endpoint", async () => {
    const body = `<feed ${CLIENT_NS}><id>${roomId(alice, room)}</id><entry><summary>hi</summary></entry></feed>`;
    assertError(await request(`${server.url}/api/comment/V2`, { token: alice.token, body }), 400, "CHAT_NOT_SUPPORTED");
  });

  it("pages messages with the older/newer flags", async () => {
    const paged = await chat.theme(alice, "Paged", [bob]);
    for (let i = 1; i <= 5; i++) await chat.say(alice, paged, `m${i}`);
    const page = await chat.messages(bob, paged, "&start-index=1&max-results=2");
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(
      entriesOf(page.xml).map((e) => atomText(e, "summary")),
      ["m4", "m3"],
    );
    assert.match(page.text, /<cblCmnt:olderCommentExists>true<\/cblCmnt:olderCommentExists>/);
    assert.match(page.text, /<cblCmnt:newerCommentExists>true<\/cblCmnt:newerCommentExists>/);
  });

  it("deletes one's own message only, and never reuses its number", async () => {
    const mine = await chat.theme(alice, "Deletes", [bob]);
    await chat.say(alice, mine, "oops");
    const deleteBody = (user: TestUser, n: number) =>
      `<feed ${CHAT_NS}><cbl:operation type="delete"/><entry><id>${roomId(user, mine)},COMMENT,${n}</id></entry></feed>`;
    assertError(await chat.pushRaw(bob, deleteBody(bob, 1)), 403, "NOT_MESSAGE_AUTHOR");
    assert.equal((await chat.pushRaw(alice, deleteBody(alice, 1))).status, 200);
    assertError(await chat.pushRaw(alice, deleteBody(alice, 1)), 404, "COMMENT_NOT_FOUND");
    const next = await chat.say(alice, mine, "again");
    assert.equal(atomText(next, "id"), `${roomId(alice, mine)},COMMENT,2`);
    assert.equal(entriesOf((await chat.messages(alice, mine)).xml).length, 1);
  });
});
