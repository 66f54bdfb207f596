import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { patternByte, postMultipart } from "../support/multipart.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("GET /api/fileDownload/V2", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let outsider: TestUser;
  let group: Group;
  let base: string;
  const download = (id: string, token = alice.token) =>
    fetch(`${server.url}/api/fileDownload/V2?id=${encodeURIComponent(id)}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user();
    outsider = await server.factories.user();
    group = await server.factories.group([alice]);
    await server.factories.group([outsider]);
    const topic = await server.factories.topic(group, alice);
    base = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    const xml = `<feed ${CLIENT_NS}><id>${base}</id><entry><summary>files</summary></entry></feed>`;
    const answer = await postMultipart(`${server.url}/api/comment/V2`, alice.token, [
      { name: "default", text: xml },
      {
        name: "file0",
        fileName: "議事録 final (v2)'s %20.txt",
        type: "text/plain; charset=utf-8",
        size: 300_000,
        fill: 7,
      },
      { name: "file1", fileName: "plain.bin", type: "not a type", size: 0 },
    ]);
    assert.equal(answer.status, 200, answer.text);
  });
  after(() => server.close());

  it("streams the bytes with Content-Type, Content-Length and an RFC 6266 Content-Disposition", async () => {
    const response = await download(`${base},COMMENT,1,ATTACHMENT,1`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/plain");
    assert.equal(response.headers.get("content-length"), "300000");
    assert.equal(
      response.headers.get("content-disposition"),
      "attachment; filename=\"___ final (v2)'s _20.txt\"; filename*=UTF-8''%E8%AD%B0%E4%BA%8B%E9%8C%B2%20final%20%28v2%29%27s%20%2520.txt",
    );
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(bytes.length, 300_000);
    for (const i of [0, 1, 65_535, 65_536, 299_999]) assert.equal(bytes[i], patternByte(i, 7), `byte ${i}`);
    const empty = await download(`${base},COMMENT,1,ATTACHMENT,2`);
    assert.equal(empty.status, 200);
    assert.equal(empty.headers.get("content-type"), "application/octet-stream", "a malformed type is not echoed");
    assert.equal(empty.headers.get("content-length"), "0");
  });

  it("answers 403 to non-members and to read-level apps, 404 to unknown files, 400 to junk", async () => {
    const id = `${base},COMMENT,1,ATTACHMENT,1`;
    const refused = await request(`${server.url}/api/fileDownload/V2?id=${id}`, { token: outsider.token });
    assertError(refused, 403, "GROUP_NOT_JOINED");
    const reader = await server.factories.user({ level: "read" });
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=${id}`, { token: reader.token }),
      403,
      "ACCESS_LEVEL_INSUFFICIENT",
    );
    for (const missing of [
      `${base},COMMENT,1,ATTACHMENT,3`,
      `${base},COMMENT,9,ATTACHMENT,1`,
      `GROUP,1:${group.id},CABINET,1:1`,
    ]) {
      assertError(
        await request(`${server.url}/api/fileDownload/V2?id=${missing}`, { token: alice.token }),
        404,
        "FILE_NOT_FOUND",
      );
    }
    assertError(
      await request(`${server.url}/api/fileDownload/V2?id=GROUP,1:${group.id},BOARD,1:99999,COMMENT,1,ATTACHMENT,1`, {
        token: alice.token,
      }),
      404,
      "TOPIC_NOT_FOUND",
    );
    assertError(await request(`${server.url}/api/fileDownload/V2?id=junk`, { token: alice.token }), 400, "INVALID_ID");
    assertError(await request(`${server.url}/api/fileDownload/V2`, { token: alice.token }), 400, "PARAMETER_REQUIRED");
    assertError(await request(`${server.url}/api/fileDownload/V2?id=${id}`), 401, "AUTHENTICATION_REQUIRED");
  });
});
