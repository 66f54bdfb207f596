// OAuth 1.0a signed API requests over real HTTP against the board endpoint: both client libraries,
// every parameter location, and every refusal with its oauth_problem.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type OAuth1a from "oauth-1.0a";
import type { Group } from "../../src/domain/group.js";
import type { TestUser } from "../support/factories.js";
import { CLIENT_NS, entriesOf, request } from "../support/http.js";
import {
  type KeyPair,
  type Method,
  NodeOAuthClient,
  assertProblem,
  formEncode,
  oauth1a,
  oauthParams,
} from "../support/oauth.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

const METHODS: readonly Method[] = ["HMAC-SHA1", "HMAC-SHA256"];

/** oauth-1.0a's header object as fetch headers. */
function header(client: OAuth1a, data: OAuth1a.Authorization): Record<string, string> {
  return { authorization: client.toHeader(data).Authorization };
}

describeEachBackend("OAuth 1.0a signed API requests", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let token: KeyPair;
  let topicId: string;
  const create = (title: string) =>
    `<feed ${CLIENT_NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${group.id}"/><title>${title}</title><summary type="text">B</summary></entry></feed>`;
  const boardUrl = (query: string) => `${server.url}/api/board/V2?${query}`;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    const topic = await server.factories.topic(group, alice, { title: "hello" });
    topicId = `GROUP,1:${group.id},BOARD,1:${topic.id}`;
    token = { key: alice.token, secret: alice.tokenSecret };
  });
  after(() => server.close());

  const headerGet = (
    url: string,
    method: Method = "HMAC-SHA1",
    consumer: KeyPair = alice.consumer,
    tok: KeyPair = token,
  ) => {
    const client = oauth1a(consumer, server.clock, method);
    return request(url, { headers: header(client, client.authorize({ url, method: "GET" }, tok)) });
  };

  for (const method of METHODS) {
    describe(method, () => {
      const queries: ReadonlyArray<readonly [string, () => string]> = [
        ["group=1:n", () => `group=1:${group.id}`],
        ["group=1%3An", () => `group=1%3A${group.id}`],
        ["entry=GROUP,1:n,BOARD,1:m", () => `entry=${topicId}`],
      ];
      for (const [name, query] of queries) {
        it(`oauth-1.0a: header and query string (${name})`, async () => {
          const url = boardUrl(query());
          const viaHeader = await headerGet(url, method);
          assert.equal(viaHeader.status, 200, viaHeader.text);
          assert.ok(entriesOf(viaHeader.xml).length >= 1);
          const client = oauth1a(alice.consumer, server.clock, method);
          const signed = client.authorize({ url, method: "GET" }, token);
          const viaQuery = await request(`${url}&${formEncode(oauthParams(signed))}`);
          assert.equal(viaQuery.status, 200, viaQuery.text);
        });

        it(`node-oauth: header and signed URL (${name})`, async () => {
          const url = boardUrl(query());
          const client = new NodeOAuthClient(alice.consumer, server.clock, method);
          const viaHeader = await request(url, {
            headers: { authorization: client.authHeader(url, token.key, token.secret, "GET") },
          });
          assert.equal(viaHeader.status, 200, viaHeader.text);
          const viaQuery = await request(client.signUrl(url, token.key, token.secret, "GET"));
          assert.equal(viaQuery.status, 200, viaQuery.text);
        });
      }

      it("oauth-1.0a and node-oauth: POST Atom create topic (XML body not signed), and with oauth_body_hash", async () => {
        const url = `${server.url}/api/board/V2`;
        const a = oauth1a(alice.consumer, server.clock, method);
        const plain = await request(url, {
          body: create("by oauth-1.0a"),
          headers: header(a, a.authorize({ url, method: "POST" }, token)),
        });
        assert.equal(plain.status, 200, plain.text);
        const body = create("with body hash");
        const hashed = header(a, a.authorize({ url, method: "POST", data: body, includeBodyHash: true }, token));
        assert.equal((await request(url, { body, headers: hashed })).status, 200);
        const n = new NodeOAuthClient(alice.consumer, server.clock, method);
        const viaNode = await request(url, {
          body: create("by node-oauth"),
          headers: { authorization: n.authHeader(url, token.key, token.secret, "POST") },
        });
        assert.equal(viaNode.status, 200, viaNode.text);
      });
    });
  }

  it("a changed byte in the query, the host, the method or the body hash is signature_invalid", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    const client = oauth1a(alice.consumer, server.clock);
    const fresh = () => header(client, client.authorize({ url, method: "GET" }, token));
    assertProblem(await request(boardUrl(`group=1:${group.id}&x=1`), { headers: fresh() }), "signature_invalid");
    assertProblem(await request(url.replace("127.0.0.1", "localhost"), { headers: fresh() }), "signature_invalid");
    assertProblem(await request(url, { method: "POST", body: create("x"), headers: fresh() }), "signature_invalid");
    const changed = fresh().authorization?.replace(/oauth_nonce="([^"]*)"/, 'oauth_nonce="$1x"');
    assertProblem(await request(url, { headers: { authorization: changed ?? "" } }), "signature_invalid");
    const post = `${server.url}/api/board/V2`;
    const hashed = header(
      client,
      client.authorize({ url: post, method: "POST", data: create("a"), includeBodyHash: true }, token),
    );
    assertProblem(await request(post, { body: create("b"), headers: hashed }), "signature_invalid");
  });

  it("a wrong consumer or token secret is signature_invalid", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    assertProblem(await headerGet(url, "HMAC-SHA1", { key: alice.consumer.key, secret: "wrong" }), "signature_invalid");
    assertProblem(
      await headerGet(url, "HMAC-SHA1", alice.consumer, { key: token.key, secret: "wrong" }),
      "signature_invalid",
    );
  });

  it("a reused nonce is nonce_used", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    const client = oauth1a(alice.consumer, server.clock);
    const headers = header(client, client.authorize({ url, method: "GET" }, token));
    assert.equal((await request(url, { headers })).status, 200);
    assertProblem(await request(url, { headers }), "nonce_used");
  });

  it("a timestamp 601 s off either way is timestamp_refused; 600 s is accepted", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    const client = oauth1a(alice.consumer, server.clock);
    const now = Math.floor(server.clock.now() / 1000);
    for (const [offset, ok] of [
      [-601, false],
      [601, false],
      [-600, true],
      [600, true],
    ] as const) {
      client.getTimeStamp = () => now + offset;
      const answer = await request(url, { headers: header(client, client.authorize({ url, method: "GET" }, token)) });
      if (ok) assert.equal(answer.status, 200, answer.text);
      else assertProblem(answer, "timestamp_refused");
    }
  });

  it("an unknown consumer is consumer_key_unknown; another application's or a revoked token is token_rejected", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    assertProblem(await headerGet(url, "HMAC-SHA1", { key: "nobody", secret: "x" }), "consumer_key_unknown");
    const bob = await server.factories.user();
    assertProblem(await headerGet(url, "HMAC-SHA1", bob.consumer, token), "token_rejected");
    const carol = await server.factories.user();
    await server.factories.group([carol]);
    const tokens = await server.store.read((tx) => tx.tokens.list());
    const carolsToken = tokens.find((t) => t.userEmail === carol.email);
    assert.ok(carolsToken);
    await server.store.transaction((tx) => tx.tokens.revoke(carolsToken.id, server.clock.now()));
    assertProblem(
      await headerGet(url, "HMAC-SHA1", carol.consumer, { key: carol.token, secret: carol.tokenSecret }),
      "token_rejected",
    );
  });

  it("a missing parameter or a refused method is 401 with its oauth_problem; Bearer still works", async () => {
    const url = boardUrl(`group=1:${group.id}`);
    assertProblem(
      await request(url, { headers: { authorization: `OAuth oauth_consumer_key="${alice.consumer.key}"` } }),
      "parameter_absent",
    );
    const client = oauth1a(alice.consumer, server.clock);
    const plaintext = client
      .toHeader(client.authorize({ url, method: "GET" }, token))
      .Authorization.replace("HMAC-SHA1", "PLAINTEXT");
    assertProblem(await request(url, { headers: { authorization: plaintext } }), "signature_method_rejected");
    assert.equal((await request(url, { token: alice.token })).status, 200);
  });
});
