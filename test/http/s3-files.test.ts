import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, it } from "node:test";
import type { S3Config } from "../../src/config/config.js";
import type { Group } from "../../src/domain/group.js";
import { LIMITS } from "../../src/domain/limits.js";
import { describeEachBackend } from "../support/backends.js";
import type { TestUser } from "../support/factories.js";
import { addTestFile, addTestVersion, pngOf } from "../support/files.js";
import { type Answer, CLIENT_NS, assertError, atomText, entriesOf, request } from "../support/http.js";
import { type Part, patternByte, postMultipart } from "../support/multipart.js";
import { type TestS3, startTestS3 } from "../support/s3.js";
import { type TestServer, startTestServer } from "../support/server.js";

// The server configured with an S3-compatible bucket (s3rver in this process): attachments and
// shared-folder files are objects in the bucket, listed there to check what is really stored;
// nothing is kept under <data>/blobs, and refused uploads leave no object and no temporary file.

const MB = 1024 * 1024;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

/** SHA-256 of the bytes a generated multipart file part holds. */
function patternHash(size: number, fill: number): string {
  const hash = createHash("sha256");
  for (let offset = 0; offset < size; offset += MB) {
    const chunk = Buffer.allocUnsafe(Math.min(MB, size - offset));
    for (let i = 0; i < chunk.length; i++) chunk[i] = patternByte(offset + i, fill);
    hash.update(chunk);
  }
  return hash.digest("hex");
}

/** The id of the comment a POST added (`...,COMMENT,n`). */
function commentIdOf(answer: Answer): string {
  assert.equal(answer.status, 200, answer.text);
  const id = atomText(entriesOf(answer.xml)[0]!, "id");
  assert.ok(id !== undefined && id.includes(",COMMENT,"), answer.text);
  return id;
}

describeEachBackend("files in an S3-compatible bucket, over HTTP", (backend) => {
  let s3: TestS3;
  let bucket: S3Config;
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let topicId: string;
  const objects = () => s3.list(bucket.prefix);
  const temps = () => filesUnder(join(server.dataDir, "tmp"));
  const xml = (text: string, extra = "") =>
    `<feed ${CLIENT_NS}><id>${topicId}</id>${extra}<entry><summary type="text">${text}</summary></entry></feed>`;
  const upload = (parts: readonly Part[]) => postMultipart(`${server.url}/api/comment/V2`, alice.token, parts);
  const download = (id: string, query = "") =>
    fetch(`${server.url}/api/fileDownload/V2?id=${encodeURIComponent(id)}${query}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
  const comments = async () =>
    entriesOf(
      (await request(`${server.url}/api/comment/V2?entry=${topicId}&max-results=100`, { token: alice.token })).xml,
    ).length;

  before(async () => {
    s3 = await startTestS3();
    bucket = s3.config();
    server = await startTestServer(backend, { blobStore: bucket });
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    topicId = `GROUP,1:${group.id},BOARD,1:${(await server.factories.topic(group, alice)).id}`;
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  it("stores a comment's attachments as objects and streams them back with their length", async () => {
    const before = await objects();
    const answer = await upload([
      { name: "default", text: xml("two files") },
      { name: "file0", fileName: "notes.txt", type: "text/plain", size: 1000, fill: 3 },
      { name: "file1", fileName: "big.bin", size: 12 * MB + 5, fill: 9 },
    ]);
    assert.equal(answer.status, 200, answer.text);
    assert.equal((await objects()).length, before.length + 2, "two new objects in the bucket");
    assert.deepEqual(filesUnder(join(server.dataDir, "blobs")), [], "nothing under <data>/blobs");
    assert.deepEqual(temps(), [], "no temporary file");
    const comment = commentIdOf(answer);
    for (const [position, size, fill] of [
      [1, 1000, 3],
      [2, 12 * MB + 5, 9],
    ] as const) {
      const response = await download(`${comment},ATTACHMENT,${position}`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-length"), String(size));
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(
        createHash("sha256").update(bytes).digest("hex"),
        patternHash(size, fill),
        `attachment ${position} unchanged`,
      );
    }
  });

  it("leaves no object and no temporary file behind for a refused upload, even one refused after it was received", async () => {
    const before = await objects();
    const count = await comments();
    const files = (n: number, size: number): Part[] =>
      Array.from({ length: n }, (_, i) => ({ name: `file${i}`, fileName: `f${i}.bin`, size }));
    // Refused at the eleventh part (file10, which the interface does not name), after ten were received.
    assertError(
      await upload([{ name: "default", text: xml("eleven") }, ...files(11, 1024)]),
      400,
      "MULTIPART_PART_INVALID",
    );
    assertError(
      await upload([{ name: "default", text: xml("huge") }, ...files(1, LIMITS.fileMaxBytes + 1)]),
      413,
      "FILE_TOO_LARGE",
    );
    // Received whole and valid as a body; refused by the service, before any byte went to the bucket.
    const replyToNothing = xml("reply", "").replace("<entry>", "<entry><cblCmnt:replyTo>999</cblCmnt:replyTo>");
    assertError(
      await upload([{ name: "default", text: replyToNothing }, ...files(2, 2 * MB)]),
      400,
      "REPLY_TO_NOT_FOUND",
    );
    assert.deepEqual(await objects(), before, "the bucket holds exactly what it held");
    assert.deepEqual(temps(), []);
    assert.equal(await comments(), count);
  });

  it("deletes a comment's objects with the comment", async () => {
    const before = await objects();
    const answer = await upload([
      { name: "default", text: xml("short-lived") },
      { name: "file0", fileName: "a.txt", size: 10 },
    ]);
    const comment = commentIdOf(answer);
    assert.equal((await objects()).length, before.length + 1);
    const del = await request(`${server.url}/api/comment/V2`, {
      token: alice.token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>${comment}</id></entry></feed>`,
    });
    assert.equal(del.status, 200, del.text);
    assert.deepEqual(await objects(), before);
  });

  it("keeps a shared-folder file's versions and thumbnail as objects and serves each", async () => {
    const before = await objects();
    const png = await pngOf(400, 200);
    const file = await addTestFile(server, group, alice, { fileName: "chart.png", bytes: png });
    assert.equal((await objects()).length, before.length + 2, "the image and its thumbnail");
    await addTestVersion(server, file, alice, Buffer.from("second version"));
    assert.equal((await objects()).length, before.length + 3);
    const id = `GROUP,1:${group.id},CABINET,1:${file.id}`;
    const first = await download(id, "&version=1");
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("content-length"), String(png.length));
    assert.deepEqual(Buffer.from(await first.arrayBuffer()), png);
    const current = await download(id);
    assert.equal(await current.text(), "second version");
    const thumbnail = await download(id, "&version=1&thumbnail=true");
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get("content-type"), "image/png");
    const thumb = Buffer.from(await thumbnail.arrayBuffer());
    assert.equal(thumbnail.headers.get("content-length"), String(thumb.length));
    assert.equal(thumb.readUInt32BE(16), 160, "160 pixels wide");
  });

  it("answers 404 FILE_NOT_FOUND when the object is gone from the bucket", async () => {
    const before = await objects();
    const comment = commentIdOf(
      await upload([
        { name: "default", text: xml("to lose") },
        { name: "file0", fileName: "gone.txt", size: 10 },
      ]),
    );
    const added = (await objects()).filter((name) => !before.includes(name));
    assert.equal(added.length, 1);
    await s3.deleteObject(added[0]!);
    const response = await download(`${comment},ATTACHMENT,1`);
    assert.equal(response.status, 404);
    assert.match(await response.text(), /code="FILE_NOT_FOUND"/);
  });
});

describeEachBackend("an S3 bucket that stops answering during a commit", (backend) => {
  let s3: TestS3;
  let server: TestServer;

  before(async () => {
    s3 = await startTestS3();
    server = await startTestServer(backend, { blobStore: s3.config() });
  });
  after(async () => {
    await server.close();
    await s3.close();
  });

  it("takes the comment back (500) and leaves no temporary file", async () => {
    const alice = await server.factories.user();
    const group = await server.factories.group([alice]);
    const topicId = `GROUP,1:${group.id},BOARD,1:${(await server.factories.topic(group, alice)).id}`;
    await s3.close();
    const answer = await postMultipart(`${server.url}/api/comment/V2`, alice.token, [
      { name: "default", text: `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary>lost</summary></entry></feed>` },
      { name: "file0", fileName: "a.bin", size: 100_000 },
    ]);
    assertError(answer, 500, "INTERNAL_ERROR");
    const listed = await request(`${server.url}/api/comment/V2?entry=${topicId}`, { token: alice.token });
    assert.equal(entriesOf(listed.xml).length, 0, "no comment without its file");
    assert.deepEqual(filesUnder(join(server.dataDir, "tmp")), []);
  });
});
