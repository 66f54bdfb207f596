// Connection-level limits over real HTTP, each at its boundary: URL length (414), header size
// (431), body size (413), slow and idle clients (408, closed connections) and concurrent uploads
// (503). Every refusal is an <error> document.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, it } from "node:test";
import { LIMITS } from "../../src/domain/limits.js";
import type { TestUser } from "../support/factories.js";
import { eventually, filesUnder } from "../support/eventually.js";
import { CLIENT_NS, assertError, request } from "../support/http.js";
import { type Part, multipartHead, multipartLength, multipartStream, postMultipart } from "../support/multipart.js";
import { type RawAnswer, openRaw, rawRequest } from "../support/raw-http.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

function assertRawError(answer: RawAnswer, status: number, code: string): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers.get("content-type") ?? "", /^application\/xml/);
  assert.equal(answer.xml.local, "error");
  assert.equal(answer.xml.attributes.get("code"), code);
}

/** A request whose target plus header names and values add up to `size` bytes, the sum Node's maxHeaderSize bounds. */
// `/nowhere`, not `/`: the root is the web interface's home page (a redirect to sign in).
function requestOfHeaderSize(size: number): string {
  const fixed = "/nowhere".length + "Host".length + "x".length + "X-Pad".length;
  return `GET /nowhere HTTP/1.1\r\nHost: x\r\nX-Pad: ${"p".repeat(size - fixed)}\r\n\r\n`;
}

describeEachBackend("sizes: URL, headers, body", (backend) => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user();
  });
  after(() => server.close());

  it(`reads a URL of ${LIMITS.urlMaxBytes} bytes and refuses one byte more with 414`, async () => {
    const target = (length: number) => `/nowhere?${"q".repeat(length - "/nowhere?".length)}`;
    const fits = await rawRequest(server.url, `GET ${target(LIMITS.urlMaxBytes)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertRawError(fits, 404, "NOT_FOUND");
    const over = await rawRequest(server.url, `GET ${target(LIMITS.urlMaxBytes + 1)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assertRawError(over, 414, "URI_TOO_LONG");
  });

  it("answers a web page's address over the limit with a 414 page, in either language", async () => {
    const path = "/g/1:1/board/1:1/comments/1/like";
    const target = `${server.url}${path}?${"q".repeat(LIMITS.urlMaxBytes - path.length)}`;
    for (const language of ["en", "ja"]) {
      const over = await fetch(target, { headers: { "accept-language": language } });
      const text = await over.text();
      assert.equal(over.status, 414, `${language}: ${text.slice(0, 200)}`);
      assert.match(text, /<!DOCTYPE html>/);
    }
  });

  it(`reads headers of ${LIMITS.headerMaxBytes - 1} bytes and refuses ${LIMITS.headerMaxBytes} with 431, then closes`, async () => {
    assertRawError(await rawRequest(server.url, requestOfHeaderSize(LIMITS.headerMaxBytes - 1)), 404, "NOT_FOUND");
    const over = await rawRequest(server.url, requestOfHeaderSize(LIMITS.headerMaxBytes));
    assertRawError(over, 431, "HEADERS_TOO_LARGE");
    assert.equal(over.headers.get("connection"), "close");
    await over.closedByServer;
  });

  it(`reads an XML body of ${LIMITS.xmlBodyMaxBytes} bytes and refuses one byte more with 413`, async () => {
    const body = (size: number) => {
      const head = `<feed ${CLIENT_NS}><entry><title>x</title><summary type="text">`;
      const tail = "</summary></entry></feed>";
      return head + "s".repeat(size - head.length - tail.length) + tail;
    };
    const fits = await request(`${server.url}/api/board/V2`, {
      token: alice.token,
      body: body(LIMITS.xmlBodyMaxBytes),
    });
    assertError(fits, 400, "GROUP_REQUIRED");
    assertError(
      await request(`${server.url}/api/board/V2`, { token: alice.token, body: body(LIMITS.xmlBodyMaxBytes + 1) }),
      413,
      "BODY_TOO_LARGE",
    );
  });
});

describeEachBackend("slow and idle clients", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let topicId: string;

  before(async () => {
    // Short timeouts so that the test waits well under a second or two for each.
    server = await startTestServer(backend, {
      limits: { headersTimeout: "0.5", requestTimeout: "1", keepAliveTimeout: "0.3", idleTimeout: "5" },
    });
    alice = await server.factories.user();
    const group = await server.factories.group([alice]);
    const topic = await server.factories.topic(group, alice);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
  });
  after(() => server.close());

  it("answers 408 to a client that never finishes its headers, and closes", async () => {
    const connection = await openRaw(server.url);
    connection.write("GET /api/group/V2 HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    assertRawError(await connection.response, 408, "REQUEST_TIMEOUT");
    await connection.closed;
  });

  it("answers 408 to an upload that stalls, closes, and leaves no temporary file", async () => {
    const parts: Part[] = [
      {
        name: "default",
        text: `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">slow</summary></entry></feed>`,
      },
      { name: "file0", fileName: "slow.bin", size: 1_000_000 },
    ];
    const connection = await openRaw(server.url);
    connection.write(multipartHead("/api/comment/V2", "x", alice.token, multipartLength(parts)));
    connection.write((await multipartBytes(parts)).subarray(0, 100_000));
    assertRawError(await connection.response, 408, "REQUEST_TIMEOUT");
    await connection.closed;
    // The handler deletes the file once it sees the connection gone, just after the close.
    await eventually(() => filesUnder(join(server.dataDir, "tmp")).length === 0, "the temporary file is deleted");
  });

  it("closes a keep-alive connection left idle after a response", async () => {
    const connection = await openRaw(server.url);
    connection.write(`GET /api/group/V2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${alice.token}\r\n\r\n`);
    assert.equal((await connection.response).status, 200);
    await connection.closed;
  });
});

describeEachBackend("concurrent uploads", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let topicId: string;
  const parts = (text: string, size: number): Part[] => [
    {
      name: "default",
      text: `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary type="text">${text}</summary></entry></feed>`,
    },
    { name: "file0", fileName: "a.bin", size },
  ];

  before(async () => {
    server = await startTestServer(backend, { limits: { maxUploads: "1" } });
    alice = await server.factories.user();
    const group = await server.factories.group([alice]);
    const topic = await server.factories.topic(group, alice);
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
  });
  after(() => server.close());

  it("receives one upload at a time when the limit is 1: a second is refused with 503, Retry-After and Connection: close", async () => {
    const first = parts("first", 10_000);
    const connection = await openRaw(server.url);
    connection.write(multipartHead("/api/comment/V2", "x", alice.token, multipartLength(first)));
    const body = await multipartBytes(first);
    // Half the file: the slot is surely taken once its temporary file exists.
    connection.write(body.subarray(0, body.length - 5_000));
    await eventually(() => filesUnder(join(server.dataDir, "tmp")).length === 1, "the first upload has started");

    const second = await postMultipart(`${server.url}/api/comment/V2`, alice.token, parts("second", 10));
    assertError(second, 503, "TOO_MANY_UPLOADS");
    assert.equal(second.headers.get("retry-after"), "5");
    assert.equal(second.headers.get("connection"), "close");

    connection.write(body.subarray(body.length - 5_000));
    assert.equal((await connection.response).status, 200, "the first upload completes");
    const third = await postMultipart(`${server.url}/api/comment/V2`, alice.token, parts("third", 10));
    assert.equal(third.status, 200, third.text);
  });
});

async function multipartBytes(parts: readonly Part[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of multipartStream(parts)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
