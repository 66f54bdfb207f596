import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { after, before, it } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Group } from "../../src/domain/group.js";
import type { Topic } from "../../src/domain/topic.js";
import { matchesAny } from "../../src/http/caching.js";
import { removeMember } from "../../src/services/member/member-admin.js";
import type { Store } from "../../src/store/store.js";
import { describeEachBackend } from "../support/backends.js";
import { eventually } from "../support/eventually.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, assertError, entriesOf, request } from "../support/http.js";
import { assertProblem, formEncode, oauth1a, oauthParams } from "../support/oauth.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** Raw bytes and headers, without fetch's automatic decompression. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

/**
 * Counts the app's reads: a feed answered from the cache reads nothing but the caller and the
 * version (for a Bearer token, both in one query: `callerView`).
 */
function countingReads(store: Store, counter: { reads: number; callerViews: number; viewVersions: number }): Store {
  return {
    ...store,
    read: (work) => ((counter.reads += 1), store.read(work)),
    transaction: (work) => store.transaction(work),
    callerView: (hash) => ((counter.callerViews += 1), store.callerView(hash)),
    viewVersion: (userId) => ((counter.viewVersions += 1), store.viewVersion(userId)),
  };
}

describeEachBackend("HTTP caching and compression of GET feeds", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let group: Group;
  let topic: Topic;
  let boardUrl: string;
  const counter = { reads: 0, callerViews: 0, viewVersions: 0 };
  const get = (token: string, headers: Record<string, string> = {}, url = boardUrl) =>
    request(url, { token, headers: { "accept-encoding": "identity", ...headers } });
  /** Reads besides authentication's (none for a Bearer token: see callerView; for OAuth the token and the consumer) that answering took. */
  const readsOf = async (send: () => Promise<unknown>, authenticationReads = 0) => {
    const before = counter.reads;
    await send();
    return counter.reads - before - authenticationReads;
  };
  const deleteTopic = (token: string, id: number) =>
    request(`${server.url}/api/board/V2`, {
      token,
      body: `<feed ${CLIENT_NS}><cbl:operation type="delete"/><entry><id>GROUP,1:${group.id},BOARD,1:${id}</id></entry></feed>`,
    });
  /** The Last-Modified once the latest change's second is over (it is withheld until then). */
  const settledLastModified = async (token: string, url = boardUrl) => {
    let value: string | null = null;
    await eventually(
      async () => (value = (await get(token, {}, url)).headers.get("last-modified")) !== null,
      "a Last-Modified",
      10_000,
    );
    return value ?? "";
  };

  before(async () => {
    server = await startTestServer(backend, { appStore: (store) => countingReads(store, counter) });
    // The outbox's and the webhooks' senders and the WebSub hub poll the same store every few seconds: their reads are not a request's.
    await server.app.mailSender.stop();
    await server.app.webhookSender.stop();
    await server.app.websubHub.stop();
    alice = await server.factories.user({ name: "Alice" });
    bob = await server.factories.user({ name: "Bob" });
    group = await server.factories.group([alice, bob]);
    topic = await server.factories.topic(group, alice, { title: "hello", body: "x".repeat(3000) });
    boardUrl = `${server.url}/api/board/V2?group=1:${group.id}`;
  });
  after(() => server.close());

  it("sends a stable strong ETag, Cache-Control and Vary", async () => {
    const first = await get(alice.token);
    const second = await get(alice.token);
    const etag = first.headers.get("etag");
    assert.match(etag ?? "", /^"[A-Za-z0-9_-]+"$/);
    assert.equal(second.headers.get("etag"), etag, "identical content, identical tag");
    assert.equal(second.text, first.text);
    assert.equal(first.headers.get("cache-control"), "private, no-cache");
    assert.match(first.headers.get("vary") ?? "", /^Authorization, accept-encoding$/i);
  });

  it("answers a repeated poll from the cache, without building the feed", async () => {
    const url = `${boardUrl}&max-results=7`;
    assert.ok((await readsOf(() => get(alice.token, {}, url))) > 0, "built");
    assert.ok(
      (await readsOf(() => get(alice.token, {}, url))) > 0,
      "built again, and kept: the caller asked for this URL before",
    );
    assert.equal(
      await readsOf(() => get(alice.token, {}, url)),
      0,
      "a hit reads nothing but the caller and the version",
    );
    const first = await get(alice.token);
    const queries = { callerViews: counter.callerViews, viewVersions: counter.viewVersions };
    assert.equal(await readsOf(() => get(alice.token, { "if-none-match": first.headers.get("etag") ?? "" })), 0);
    assert.deepEqual(
      {
        callerViews: counter.callerViews - queries.callerViews,
        viewVersions: counter.viewVersions - queries.viewVersions,
      },
      { callerViews: 1, viewVersions: 0 },
      "a Bearer poll's 304 is one query: the token and the version together",
    );
    assert.ok(
      (await readsOf(() => get(alice.token, {}, `${boardUrl}&max-results=5`))) > 0,
      "another query is another feed",
    );
    assert.ok((await readsOf(() => get(bob.token))) > 0, "another caller is another feed");
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

  it("withholds Last-Modified while the last change's second may see more, then sends that second", async () => {
    await server.factories.topic(group, bob, { title: "fresh" });
    const fresh = await get(alice.token);
    assert.equal(fresh.headers.get("last-modified"), null, "changed just now");
    assert.equal(
      (await get(alice.token, { "if-modified-since": new Date().toUTCString() })).status,
      200,
      "no date, no 304 by date",
    );
    const lastModified = await settledLastModified(alice.token);
    const at = Date.parse(lastModified);
    assert.ok(Math.abs(at - Date.now()) < 60_000, "the database's clock, not the feed's dates");
    assert.notEqual(lastModified, new Date(topic.updatedAt).toUTCString());
  });

  it("answers If-Modified-Since with 304 only on the exact Last-Modified, and only without If-None-Match", async () => {
    const lastModified = await settledLastModified(alice.token);
    const at = Date.parse(lastModified);
    assert.equal((await get(alice.token, { "if-modified-since": lastModified })).status, 304);
    assert.equal(
      (await get(alice.token, { "if-modified-since": lastModified, "if-none-match": '"stale"' })).status,
      200,
    );
    assert.equal((await get(alice.token, { "if-modified-since": new Date(at - 1000).toUTCString() })).status, 200);
    assert.equal(
      (await get(alice.token, { "if-modified-since": new Date(at + 1000).toUTCString() })).status,
      200,
      "a later date is not this feed's",
    );
    assert.equal((await get(alice.token, { "if-modified-since": new Date(0).toUTCString() })).status, 200);
    assert.equal((await get(alice.token, { "if-modified-since": "not a date" })).status, 200);
  });

  it("answers 200 to the old Last-Modified once an older topic is deleted (the feed's newest date does not move)", async () => {
    const older = await server.factories.topic(group, bob, { title: "older, to delete" });
    server.clock.advance(60_000);
    await server.factories.topic(group, bob, { title: "newer" });
    const lastModified = await settledLastModified(bob.token);
    const before = await get(bob.token);
    assert.equal((await deleteTopic(bob.token, older.id)).status, 200);
    const answer = await get(bob.token, { "if-modified-since": lastModified });
    assert.equal(answer.status, 200);
    assert.doesNotMatch(answer.text, /older, to delete/);
    const updated = (text: string) => /<updated>([^<]+)<\/updated>/.exec(text)?.[1];
    assert.equal(updated(answer.text), updated(before.text), "the feed's own date stayed");
  });

  it("compresses large feeds with gzip or br to the same XML, with a tag of its own, the same bytes from the cache", async () => {
    const auth = { authorization: `Bearer ${alice.token}` };
    const plain = await rawGet(boardUrl, auth);
    const gzip = await rawGet(boardUrl, { ...auth, "accept-encoding": "gzip" });
    const br = await rawGet(boardUrl, { ...auth, "accept-encoding": "br;q=1, gzip;q=0.5" });
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(gzip.headers["content-encoding"], "gzip");
    assert.equal(br.headers["content-encoding"], "br");
    assert.ok(gzip.body.length < plain.body.length);
    assert.equal(gunzipSync(gzip.body).toString("utf8"), plain.body.toString("utf8"));
    assert.equal(brotliDecompressSync(br.body).toString("utf8"), plain.body.toString("utf8"));
    assert.equal(String(gzip.headers.vary).toLowerCase(), "authorization, accept-encoding");
    assert.notEqual(gzip.headers.etag, plain.headers.etag, "a strong tag names one representation");
    const again = await rawGet(boardUrl, { ...auth, "accept-encoding": "gzip" });
    assert.deepEqual(again.body, gzip.body, "one tag, one set of bytes");
    assert.equal(again.headers.etag, gzip.headers.etag);
    const revalidated = await rawGet(boardUrl, {
      ...auth,
      "accept-encoding": "gzip",
      "if-none-match": String(gzip.headers.etag),
    });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
    const refused = await rawGet(boardUrl, { ...auth, "accept-encoding": "gzip;q=0, br;q=0" });
    assert.equal(refused.headers["content-encoding"], undefined);
  });

  it("leaves small error documents uncompressed and without validators", async () => {
    const answer = await rawGet(`${server.url}/api/board/V2?group=1:999999`, {
      authorization: `Bearer ${alice.token}`,
      "accept-encoding": "gzip",
    });
    assert.equal(answer.status, 404);
    assert.equal(answer.headers["content-encoding"], undefined);
    assert.equal(answer.headers.etag, undefined);
    assert.match(answer.body.toString("utf8"), /<error code=/);
  });

  it("serves signed requests from the cache whatever their nonce, and still refuses a reused nonce", async () => {
    const token = { key: alice.token, secret: alice.tokenSecret };
    const signedGet = () => {
      const client = oauth1a(alice.consumer, server.clock);
      return request(
        `${boardUrl}&${formEncode(oauthParams(client.authorize({ url: boardUrl, method: "GET" }, token)))}`,
      );
    };
    for (let n = 0; n < 2; n++) assert.equal((await signedGet()).status, 200);
    assert.equal(await readsOf(async () => assert.equal((await signedGet()).status, 200), 2), 0);
    const client = oauth1a(alice.consumer, server.clock);
    const headers = {
      authorization: client.toHeader(client.authorize({ url: boardUrl, method: "GET" }, token)).Authorization,
    };
    assert.equal((await request(boardUrl, { headers })).status, 200);
    assertProblem(await request(boardUrl, { headers }), "nonce_used");
  });

  it("answers a former member 403, not the feed kept for them", async () => {
    const carol = await server.factories.user({ name: "Carol" });
    const own = await server.factories.group([alice, carol]);
    const url = `${server.url}/api/board/V2?group=1:${own.id}`;
    const kept = await get(carol.token, {}, url);
    assert.equal(kept.status, 200);
    await removeMember(server, { groupId: own.id, email: carol.email });
    assertError(
      await get(carol.token, { "if-none-match": kept.headers.get("etag") ?? "" }, url),
      403,
      "GROUP_NOT_JOINED",
    );
    assertError(await get(carol.token, {}, url), 403, "GROUP_NOT_JOINED");
  });

  it("answers a revoked token 401, not the feed kept for it", async () => {
    const dave = await server.factories.user({ name: "Dave" });
    const own = await server.factories.group([dave]);
    const url = `${server.url}/api/board/V2?group=1:${own.id}`;
    const kept = await get(dave.token, {}, url);
    assert.equal(kept.status, 200);
    await server.store.transaction((tx) =>
      tx.tokens.revokeAppOfUser(dave.id, dave.consumer.id, "personal", server.clock.now()),
    );
    assertError(await get(dave.token, { "if-none-match": kept.headers.get("etag") ?? "" }, url), 401, "TOKEN_REJECTED");
  });

  it("builds a task list whose term starts now every time, without Last-Modified; a fixed term is kept", async () => {
    await server.factories.task(group, alice, { dueAt: server.clock.now() + 86_400_000 });
    const end = new Date(server.clock.now() + 20 * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");
    const fromNow = `${server.url}/api/gwTask/V2?group=1:${group.id}&term-end=${end}`;
    const fixed = `${fromNow}&term-start=${new Date(server.clock.now()).toISOString().replace(/\.\d+Z$/, "Z")}`;
    await settledLastModified(alice.token, fixed);
    const first = await get(alice.token, {}, fromNow);
    assert.equal(first.status, 200, first.text);
    assert.equal(entriesOf(first.xml).length, 1);
    assert.equal(first.headers.get("last-modified"), null);
    assert.ok(first.headers.get("etag"));
    assert.ok((await readsOf(() => get(alice.token, {}, fromNow))) > 0, "built again");
    server.clock.advance(2 * 86_400_000);
    assert.equal(entriesOf((await get(alice.token, {}, fromNow)).xml).length, 0, "the term moved with the clock");
    assert.equal(await readsOf(() => get(alice.token, {}, fixed)), 0, "kept");
  });

  it("answers HEAD with the validators of GET", async () => {
    const got = await get(alice.token);
    const head = await request(boardUrl, {
      method: "HEAD",
      token: alice.token,
      headers: { "accept-encoding": "identity" },
    });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), got.headers.get("etag"));
    assert.equal(head.text, "");
  });

  it("matches tags weakly and across encodings of the same content", () => {
    assert.ok(matchesAny('W/"abc"', '"abc"'));
    assert.ok(matchesAny('"x", "abc.gzip"', '"abc"'));
    assert.ok(matchesAny("*", '"abc"'));
    assert.ok(!matchesAny('"abcd"', '"abc"'));
  });
});
