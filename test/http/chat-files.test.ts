import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import { LIMITS } from "../../src/domain/limits.js";
import { assertValidAtom } from "../support/atom-schema.js";
import { describeEachBackend } from "../support/backends.js";
import { CHAT_NS, ChatClient, roomId } from "../support/chat.js";
import type { TestUser } from "../support/factories.js";
import { assertError, atomText, entriesOf, request } from "../support/http.js";
import { type Part, patternByte, postMultipart } from "../support/multipart.js";
import { openSse } from "../support/sse.js";
import { type TestServer, startTestServer } from "../support/server.js";

function attachmentsOf(entry: XmlElement): Record<string, string>[] {
  return entry.children.filter((c) => c.local === "attachment").map((c) => Object.fromEntries(c.attributes));
}

describeEachBackend("files on chat messages (/api/comet/mpChatPush/V2 multipart)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let chat: ChatClient;
  let room: number;
  const xml = (user: TestUser, text: string) =>
    `<feed ${CHAT_NS}><cbl:operation type="insert"/><id>${roomId(user, room)}</id><entry><summary type="text">${text}</summary></entry></feed>`;
  const push = (user: TestUser, parts: readonly Part[]) =>
    postMultipart(`${server.url}/api/comet/mpChatPush/V2`, user.token, parts);
  const download = (user: TestUser, id: string) =>
    fetch(`${server.url}/api/fileDownload/V2?id=${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
  // Files only: the temporary area may hold directories of its own.
  const temps = () =>
    existsSync(join(server.dataDir, "tmp"))
      ? readdirSync(join(server.dataDir, "tmp"), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      : [];

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    carol = await server.factories.user({ name: "Carol" });
    await server.factories.group([alice, bob, carol], { name: "Team" });
    chat = new ChatClient(server);
    room = await chat.theme(alice, "Files", [bob]);
  });
  after(() => server.close());

  it("stores a member's files, lists them as cbl:attachment, and serves them to members only", async () => {
    const answer = await push(alice, [
      { name: "default", text: xml(alice, "the report & more") },
      { name: "file0", fileName: "報告.txt", type: "text/plain", size: 70_000, fill: 3 },
      { name: "file1", fileName: "b.bin", size: 5 },
    ]);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    assert.equal(atomText(entry, "summary"), "the report & more", "the bare & is read literally here too");
    const first = `${roomId(alice, room)},COMMENT,1,ATTACHMENT,1`;
    assert.deepEqual(attachmentsOf(entry)[0], {
      fileName: "報告.txt",
      id: first,
      size: "70000",
      type: "text/plain",
      entryId: first,
      number: "1",
    });
    assert.equal(attachmentsOf(entry).length, 2);
    const listed = entriesOf((await chat.messages(bob, room)).xml)[0]!;
    const bobsId = `${roomId(bob, room)},COMMENT,1,ATTACHMENT,1`;
    assert.equal(attachmentsOf(listed)[0]?.entryId, bobsId, "the list writes the id from the reader's side");
    const got = await download(bob, bobsId);
    assert.equal(got.status, 200);
    const bytes = Buffer.from(await got.arrayBuffer());
    assert.equal(bytes.length, 70_000);
    for (const i of [0, 65_536, 69_999]) assert.equal(bytes[i], patternByte(i, 3), `byte ${i}`);
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${first}`, { token: carol.token }),
      404,
      "NOT_FOUND",
    );
    const missing = `${roomId(alice, room)},COMMENT,1,ATTACHMENT,3`;
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${missing}`, { token: alice.token }),
      404,
      "FILE_NOT_FOUND",
    );
    assert.deepEqual(temps(), [], "no temporary file left");
  });

  it("accepts empty text with a file, refuses it without one", async () => {
    const answer = await push(bob, [
      { name: "default", text: xml(bob, "") },
      { name: "file0", fileName: "only.png", type: "image/png", size: 10 },
    ]);
    assert.equal(answer.status, 200, answer.text);
    const entry = entriesOf(answer.xml)[0]!;
    assert.equal(atomText(entry, "summary"), "");
    assert.equal(attachmentsOf(entry).length, 1);
    assertError(await push(bob, [{ name: "default", text: xml(bob, " ") }]), 400, "CHAT_MESSAGE_MISSING");
  });

  it("refuses an outsider's upload and more files than a comment may carry, keeping nothing", async () => {
    const file: Part = { name: "file0", fileName: "x.bin", size: 10 };
    assertError(await push(carol, [{ name: "default", text: xml(carol, "hi") }, file]), 404, "NOT_FOUND");
    const eleven = Array.from({ length: LIMITS.filesPerComment + 1 }, (_, i) => ({
      name: `file${i}`,
      fileName: `f${i}.bin`,
      size: 1,
    }));
    // The eleventh file can only be named file10, which the interface does not name.
    assertError(
      await push(alice, [{ name: "default", text: xml(alice, "many") }, ...eleven]),
      400,
      "MULTIPART_PART_INVALID",
    );
    const ten = eleven.slice(0, LIMITS.filesPerComment);
    assert.equal(
      (await push(alice, [{ name: "default", text: xml(alice, "ten") }, ...ten])).status,
      200,
      "10 files pass",
    );
    assert.deepEqual(temps(), []);
  });

  it("sends a message's files on the live stream, each id from the stream owner's side", async () => {
    const live = await openSse(`${server.url}/api/stream/V2`, { authorization: `Bearer ${bob.token}` });
    try {
      const answer = await push(alice, [
        { name: "default", text: xml(alice, "streamed file") },
        { name: "file0", fileName: "live.txt", type: "text/plain", size: 3 },
      ]);
      assert.equal(answer.status, 200, answer.text);
      const [event] = await live.waitFor((e) => e.event === "chat" && e.data.includes("streamed file"));
      const number = /COMMENT,([0-9]+)$/.exec(atomText(entriesOf(answer.xml)[0]!, "id") ?? "")?.[1];
      const bobsId = `${roomId(bob, room)},COMMENT,${number},ATTACHMENT,1`;
      assert.ok(event!.data.includes(`entryId="${bobsId}"`), event!.data);
      assert.ok(event!.data.includes('fileName="live.txt"'), event!.data);
      assert.ok(event!.data.includes("<cblGood:count>0</cblGood:count>"), event!.data);
      const embedded = await chat.rooms(bob, `id=${encodeURIComponent(roomId(bob, room))}&embed-comment=true`);
      assert.ok(embedded.text.includes(`entryId="${bobsId}"`), "embedded messages carry their files too");
    } finally {
      live.close();
    }
  });

  it("deletes a message's files with it", async () => {
    const answer = await push(alice, [
      { name: "default", text: xml(alice, "gone soon") },
      { name: "file0", fileName: "g.bin", size: 4 },
    ]);
    const id = atomText(entriesOf(answer.xml)[0]!, "id")!;
    const body = `<feed ${CHAT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`;
    assert.equal((await chat.pushRaw(alice, body)).status, 200);
    assert.equal((await download(alice, `${id},ATTACHMENT,1`)).status, 404);
  });
});
