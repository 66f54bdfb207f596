import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, describe, it } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { matchesAny } from "../../src/http/caching.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** Raw bytes and headers, without fetch's automatic decompression. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("HTTP caching and compression of GET feeds", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let topic: Topic;
  let boardUrl: string;
  const get = (token: string, headers: Record<string, string> = {}) =>
    request(boardUrl, { token, headers: { "accept-encoding": "identity", ...headers } });

  before(async () => {
    server = await startTestServer();
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob]);
    topic = await server.factories.topic(group, alice, { title: "hello", body: "x".repeat(3000) });
    boardUrl = `${server.url}/api/board/V2?group=1:${group.id}`;
  });
  after(() => server.close());

  it("sends a stable strong ETag, Last-Modified, Cache-Control and Vary", async () => {
    const first = await get(alice.token);
    const second = await get(alice.token);
    const etag = first.headers.get("etag");
    assert.match(etag ?? "", /^"[A-Za-z0-9_-]+"$/);
    assert.equal(second.headers.get("etag"), etag, "identical content, identical tag");
    assert.equal(first.headers.get("cache-control"), "private, no-cache");
    assert.match(first.headers.get("vary") ?? "", /^Authorization, accept-encoding$/i);
    assert.equal(first.headers.get("last-modified"), new Date(topic.updatedAt).toUTCString());
  });

  it("answers If-None-Match with 304 and no body, keeping the validators", async () => {
    const etag = (await get(alice.token)).headers.get("etag") ?? "";
    const answer = await get(alice.token, { "if-none-match": `W/"other", ${etag}` });
    assert.equal(answer.status, 304);
    assert.equal(answer.text, "");
    assert.equal(answer.headers.get("etag"), etag);
    assert.equal(answer.headers.get("cache-control"), "private, no-cache");
    assert.equal((await get(alice.token, { "if-none-match": '"stale"' })).status, 200);
  });

  it("gives each caller their own tag: the feed names the caller as author", async () => {
    const forAlice = (await get(alice.token)).headers.get("etag");
    const asBob = await get(bob.token, { "if-none-match": forAlice ?? "" });
    assert.equal(asBob.status, 200);
    assert.match(asBob.text, /<name>Bob<\/name>/);
    assert.notEqual(asBob.headers.get("etag"), forAlice);
  });

  it("changes the tag after an edit, so the old one gets the new feed", async () => {
    const before = (await get(alice.token)).headers.get("etag") ?? "";
    server.clock.advance(60_000);
    const body = `<feed ${CLIENT_NS}><cbl:operation type="update"/><entry><id>GROUP,1:${group.id},BOARD,1:${topic.id}</id><title>edited</title></entry></feed>`;
    assert.equal((await request(`${server.url}/api/board/V2`, { token: alice.token, body })).status, 200);
    const answer = await get(alice.token, { "if-none-match": before });
    assert.equal(answer.status, 200);
    assert.match(answer.text, /edited/);
    assert.notEqual(answer.headers.get("etag"), before);
  });

  it("answers If-Modified-Since with 304 only when If-None-Match is absent", async () => {
    const lastModified = (await get(alice.token)).headers.get("last-modified") ?? "";
    assert.equal((await get(alice.token, { "if-modified-since": lastModified })).status, 304);
    assert.equal((await get(alice.token, { "if-modified-since": lastModified, "if-none-match": '"stale"' })).status, 200);
    assert.equal((await get(alice.token, { "if-modified-since": new Date(0).toUTCString() })).status, 200);
  });

  it("compresses large feeds with gzip or br to the same XML, with a tag of its own", async () => {
    const plain = await rawGet(boardUrl, { authorization: `Bearer ${alice.token}` });
    const gzip = await rawGet(boardUrl, { authorization: `Bearer ${alice.token}`, "accept-encoding": "gzip" });
    const br = await rawGet(boardUrl, { authorization: `Bearer ${alice.token}`, "accept-encoding": "br" });
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(gzip.headers["content-encoding"], "gzip");
    assert.equal(br.headers["content-encoding"], "br");
    assert.ok(gzip.body.length < plain.body.length);
    assert.equal(gunzipSync(gzip.body).toString("utf8"), plain.body.toString("utf8"));
    assert.equal(brotliDecompressSync(br.body).toString("utf8"), plain.body.toString("utf8"));
    assert.equal(String(gzip.headers.vary).toLowerCase(), "authorization, accept-encoding");
    assert.notEqual(gzip.headers.etag, plain.headers.etag, "a strong tag names one representation");
    const revalidated = await rawGet(boardUrl, { authorization: `Bearer ${alice.token}`, "accept-encoding": "gzip", "if-none-match": String(gzip.headers.etag) });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
  });

  it("leaves small error documents uncompressed and without validators", async () => {
    const answer = await rawGet(`${server.url}/api/board/V2?group=1:999999`, { authorization: `Bearer ${alice.token}`, "accept-encoding": "gzip" });
    assert.equal(answer.status, 404);
    assert.equal(answer.headers["content-encoding"], undefined);
    assert.equal(answer.headers.etag, undefined);
    assert.match(answer.body.toString("utf8"), /<error code=/);
  });

  it("matches tags weakly and across encodings of the same content", () => {
    assert.ok(matchesAny('W/"abc"', '"abc"'));
    assert.ok(matchesAny('"x", "abc.gzip"', '"abc"'));
    assert.ok(matchesAny("*", '"abc"'));
    assert.ok(!matchesAny('"abcd"', '"abc"'));
  });
});
