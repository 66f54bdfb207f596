import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, it } from "node:test";
import type { XmlElement } from "../../src/atom/parse.js";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { LIMITS } from "../../src/domain/limits.js";
import { assertValidAtom } from "../support/atom-schema.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { type Part, multipartHead, multipartLength, multipartStream, postMultipart } from "../support/multipart.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

const MB = 1024 * 1024;

/** Every file under a directory, recursively ([] when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describeEachBackend("POST /api/comment/V2 (multipart)", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let topic: Topic;
  let topicId: string;
  const xml = (text: string) =>
    `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${topicId}</id><entry><summary type="text">${text}</summary></entry></feed>`;
  const files = (count: number, size: number): Part[] =>
    Array.from({ length: count }, (_, i) => ({ name: `file${i}`, fileName: `f${i}.bin`, size, fill: i }));
  const upload = (parts: readonly Part[], options?: { chunked?: boolean; declaredLength?: number }) =>
    postMultipart(`${server.url}/api/comment/V2`, alice.token, parts, options);
  const commentCount = async () =>
    entriesOf(
      (await request(`${server.url}/api/comment/V2?entry=${topicId}&max-results=100`, { token: alice.token })).xml,
    ).length;
  const blobs = () => filesUnder(join(server.dataDir, "blobs"));
  const temps = () => filesUnder(join(server.dataDir, "tmp"));

  /** A refused upload leaves no comment, no stored file and no temporary file. */
  async function assertNothingLeft(comments: number, stored: number): Promise<void> {
    assert.equal(await commentCount(), comments, "no comment");
    assert.equal(blobs().length, stored, "no stored file");
    assert.deepEqual(temps(), [], "no temporary file");
  }

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    topic = await server.factories.topic(group, alice);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
  });
  after(() => server.close());

  it("stores files with a comment and lists them as cbl:attachment, empty text allowed", async () => {
    const parts: Part[] = [
      { name: "default", text: xml("see [file:1]") },
      { name: "file0", fileName: "報告書 2026.pdf", type: "application/pdf", size: 1000 },
      { name: "file1", fileName: "photo.png", type: "image/png", size: 10 },
    ];
    const answer = await upload(parts);
    assert.equal(answer.status, 200, answer.text);
    await assertValidAtom(answer.text);
    const attachments = nsChildren(entriesOf(answer.xml)[0]!);
    const first = `${topicId},COMMENT,1,ATTACHMENT,1`;
    const second = `${topicId},COMMENT,1,ATTACHMENT,2`;
    assert.deepEqual(attachments, [
      { fileName: "報告書 2026.pdf", id: first, size: "1000", type: "application/pdf", entryId: first, number: "1" },
      { fileName: "photo.png", id: second, size: "10", type: "image/png", entryId: second, number: "2" },
    ]);
    assert.match(
      answer.text,
      /<cbl:attachment fileName="[^"]+" id="[^"]+" size="1000" type="application\/pdf" entryId="[^"]+" number="1"\/>/,
    );
    const listed = await request(`${server.url}/api/comment/V2?entry=${topicId}`, { token: alice.token });
    assert.deepEqual(nsChildren(entriesOf(listed.xml)[0]!), attachments, "the feed shows the same attachments");
    assert.equal(atomText(entriesOf(listed.xml)[0]!, "summary"), "see [file:1]");
    const empty = await upload([
      { name: "default", text: xml(""), fileName: "request.xml", type: "application/atom+xml" },
      ...files(1, 5),
    ]);
    assert.equal(empty.status, 200, empty.text);
    assertError(await upload([{ name: "default", text: xml("") }]), 400, "COMMENT_TEXT_REQUIRED");
    assert.equal(blobs().length, 3);
    assert.deepEqual(temps(), []);
  });

  it("names a file part sent with an empty file name after its part", async () => {
    const before = await commentCount();
    const answer = await upload([
      { name: "default", text: xml("nameless") },
      { name: "file0", fileName: "", size: 3 },
    ]);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(await commentCount(), before + 1);
    const feed = await request(`${server.url}/api/comment/V2?entry=${topicId}&max-results=1`, { token: alice.token });
    assert.match(feed.text, /file0/);
  });

  it("takes 10 files and refuses 11", async () => {
    const before = await commentCount();
    const ten = await upload([{ name: "default", text: xml("ten") }, ...files(10, 1024)]);
    assert.equal(ten.status, 200, ten.text);
    assert.equal(nsChildren(entriesOf(ten.xml)[0]!).length, 10);
    const stored = blobs().length;
    // The eleventh file can only be named file10, which the interface does not name.
    assertError(
      await upload([{ name: "default", text: xml("eleven") }, ...files(11, 1024)]),
      400,
      "MULTIPART_PART_INVALID",
    );
    await assertNothingLeft(before + 1, stored);
    assertError(
      await upload([
        { name: "default", text: xml("odd") },
        { name: "attachment", fileName: "a", size: 3 },
      ]),
      400,
      "MULTIPART_PART_INVALID",
    );
    assertError(await upload(files(1, 3)), 400, "DEFAULT_PART_REQUIRED");
    await assertNothingLeft(before + 1, stored);
  });

  it("takes a 25 MB file and refuses 25 MB + 1 byte, with or without Content-Length", async () => {
    const before = await commentCount();
    const stored = blobs().length;
    const exact = await upload([
      { name: "default", text: xml("big") },
      { name: "file0", fileName: "big.bin", size: LIMITS.fileMaxBytes },
    ]);
    assert.equal(exact.status, 200, exact.text);
    assert.equal(nsChildren(entriesOf(exact.xml)[0]!)[0]?.size, String(25 * MB));
    const over = [
      { name: "default", text: xml("too big") },
      { name: "file0", fileName: "big.bin", size: LIMITS.fileMaxBytes + 1 },
    ];
    assertError(await upload(over), 413, "FILE_TOO_LARGE");
    assertError(await upload(over, { chunked: true }), 413, "FILE_TOO_LARGE");
    await assertNothingLeft(before + 1, stored + 1);
  });

  it("takes 50 MB of files in all and refuses more, early when Content-Length says so", async () => {
    const before = await commentCount();
    const stored = blobs().length;
    const fifty = await upload([{ name: "default", text: xml("fifty") }, ...files(2, LIMITS.multipartMaxBytes / 2)]);
    assert.equal(fifty.status, 200, fifty.text);
    const over: Part[] = [
      { name: "default", text: xml("over") },
      ...files(2, LIMITS.multipartMaxBytes / 2),
      { name: "file2", fileName: "one.bin", size: 1 },
    ];
    assertError(await upload(over, { chunked: true }), 413, "ATTACHMENTS_TOO_LARGE");
    const third: Part[] = [{ name: "default", text: xml("over") }, ...files(3, 20 * MB)];
    assertError(await upload(third), 413, "REQUEST_TOO_LARGE");
    await assertNothingLeft(before + 1, stored + 2);
  });

  it("leaves no comment, no file and no temporary file when the client goes away half-way", async () => {
    const before = await commentCount();
    const stored = blobs().length;
    const parts: Part[] = [{ name: "default", text: xml("cut") }, ...files(2, 4 * MB)];
    const length = multipartLength(parts);
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(multipartHead("/api/comment/V2", `127.0.0.1:${port}`, alice.token, length));
    let sent = 0;
    for await (const chunk of multipartStream(parts)) {
      const buffer = chunk as Buffer;
      if (!socket.write(buffer)) await new Promise((resolve) => socket.once("drain", resolve));
      sent += buffer.length;
      if (sent > 5 * MB) break;
    }
    // Wait until the server is writing a file, then cut the connection off.
    for (let i = 0; i < 100 && temps().length === 0; i++) await sleep(10);
    assert.ok(temps().length > 0, "the server was receiving into a temporary file");
    socket.destroy();
    for (let i = 0; i < 200 && temps().length > 0; i++) await sleep(10);
    await assertNothingLeft(before, stored);
  });

  it("deletes a comment's files with the comment, and with its topic", async () => {
    const t = await server.factories.topic(group, alice);
    const id = `GROUP,1:${group.id},BOARD,1:${t.id}`;
    const stored = blobs().length;
    const body = (text: string) => `<feed ${CLIENT_NS}><id>${id}</id><entry><summary>${text}</summary></entry></feed>`;
    for (const text of ["one", "two"]) {
      const answer = await upload([{ name: "default", text: body(text) }, ...files(2, 100)]);
      assert.equal(answer.status, 200, answer.text);
    }
    assert.equal(blobs().length, stored + 4);
    const ref = { kind: "BOARD" as const, groupId: group.id, id: t.id };
    const commentIds = (await server.store.read((tx) => tx.comments.listAll([ref]))).map((c) => c.id);
    const attachmentRows = () => server.store.read((tx) => tx.attachments.listOf(commentIds));
    assert.equal((await attachmentRows()).length, 4);
    const del = await request(`${server.url}/api/comment/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id},COMMENT,1</id></entry></feed>`,
    });
    assert.equal(del.status, 200, del.text);
    assert.equal(blobs().length, stored + 2);
    assert.equal((await attachmentRows()).length, 2);
    const dropTopic = await request(`${server.url}/api/board/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${id}</id></entry></feed>`,
    });
    assert.equal(dropTopic.status, 200, dropTopic.text);
    assert.equal(blobs().length, stored);
    assert.deepEqual(await attachmentRows(), [], "their rows are gone too");
  });

  it("refuses uploads from applications below write before reading them", async () => {
    const reader = await server.factories.user({ level: "comments" });
    await server.factories.group([reader]);
    const answer = await postMultipart(`${server.url}/api/comment/V2`, reader.token, [
      { name: "default", text: xml("x") },
      ...files(1, 10),
    ]);
    assertError(answer, 403, "ACCESS_LEVEL_INSUFFICIENT");
    assert.deepEqual(temps(), []);
  });
});

/** The attributes of each `cbl:attachment` of an entry. */
function nsChildren(entry: XmlElement): Record<string, string>[] {
  return entry.children
    .filter((c) => c.local === "attachment" && c.ns === "http://schemas.cybozulive.com/common/2010")
    .map((c) => Object.fromEntries(c.attributes));
}
