// The API's multipart bodies name their parts exactly: `default` (the Atom entry) and `file0` to
// `file9`, each at most once. Any other part (`file10`, `file99`, `attachment`, a stray text
// field) or a part sent twice is refused with 400 MULTIPART_PART_INVALID naming it, and nothing is
// written: no comment, no chat message, no stored file, no temporary file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId } from "../support/chat.js";
import { filesUnder } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, entriesOf, request } from "../support/http.js";
import { type Part, postMultipart } from "../support/multipart.js";
import { type TestServer, startTestServer } from "../support/server.js";

const file = (name: string): Part => ({ name, fileName: `${name}.bin`, size: 100 });

/** Bodies the interface does not name, and the part each refusal must name. */
const WRONG: readonly (readonly [string, readonly Part[]])[] = [
  ["file99", [file("file0"), file("file99")]],
  ["file10", [file("file10")]],
  ["file0", [file("file0"), file("file0")]],
  ["default", [{ name: "default", text: "<x/>" }]], // a second default, after the first (added below)
  ["attachment", [file("attachment")]],
  ["File0", [file("File0")]],
  ["file01", [file("file01")]],
  ["note", [{ name: "note", text: "a stray text field" }]],
];

describeEachBackend("multipart part names (/api/comment/V2, /api/comet/mpChatPush/V2)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let topicId: string;
  let room: number;
  let chat: ChatClient;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob]);
    const topic = await server.factories.topic(group, alice);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    chat = new ChatClient(server);
    room = await chat.theme(alice, "Room", [bob]);
  });
  after(() => server.close());

  const commentXml = `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${"TOPIC"}</id><entry><summary type="text">hi</summary></entry></feed>`;
  const comments = async () =>
    entriesOf(
      (await request(`${server.url}/api/comment/V2?entry=${topicId}&max-results=100`, { token: alice.token })).xml,
    ).length;
  const stored = () => filesUnder(join(server.dataDir, "blobs")).length;
  const temps = () => filesUnder(join(server.dataDir, "tmp"));

  async function assertRefusedEverywhere(named: string, parts: readonly Part[]): Promise<void> {
    const before = { comments: await comments(), files: stored() };
    const comment = await postMultipart(`${server.url}/api/comment/V2`, alice.token, [
      { name: "default", text: commentXml.replace("TOPIC", topicId) },
      ...parts,
    ]);
    assertError(comment, 400, "MULTIPART_PART_INVALID");
    assert.ok(comment.xml.text.includes(`"${named}"`), `the refusal names ${named}: ${comment.text}`);
    const chatXml = `<feed ${CHAT_NS}><cbl:operation type="insert"/><id>${roomId(alice, room)}</id><entry><summary type="text">hi</summary></entry></feed>`;
    const push = await postMultipart(`${server.url}/api/comet/mpChatPush/V2`, alice.token, [
      { name: "default", text: chatXml },
      ...parts,
    ]);
    assertError(push, 400, "MULTIPART_PART_INVALID");
    assert.deepEqual({ comments: await comments(), files: stored() }, before, `nothing written for ${named}`);
    assert.deepEqual(temps(), [], "no temporary file left");
  }

  it("refuses every part the interface does not name, and every part sent twice, writing nothing", async () => {
    const roomBefore = (await chat.rooms(alice, "chat-type=THEME")).text;
    for (const [named, parts] of WRONG) await assertRefusedEverywhere(named, parts);
    assert.equal((await chat.rooms(alice, "chat-type=THEME")).text, roomBefore, "no chat message in the room");
  });

  it("takes default and file0 to file9 once each, in any order", async () => {
    const before = await comments();
    const parts: Part[] = [
      file("file9"),
      { name: "default", text: commentXml.replace("TOPIC", topicId) },
      ...Array.from({ length: 9 }, (_, i) => file(`file${i}`)),
    ];
    const answer = await postMultipart(`${server.url}/api/comment/V2`, alice.token, parts);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(await comments(), before + 1);
  });
});
