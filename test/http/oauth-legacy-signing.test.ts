// Legacy signing (docs/api.md "OAuth"): Catalyst::Authentication::Credential::OAuth 0.04 signs the
// access-token request with an empty token secret. Accepted at /oauth/token only, once the person
// approved and with the right verifier, and only for applications the operator marked.
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestConsumer, type TestUser, PASSWORD } from "../support/factories.js";
import { type Answer, request } from "../support/http.js";
import { type KeyPair, assertProblem, encode } from "../support/oauth.js";
import { approve, initiate, issuedPair, signedGet, signedPost } from "../support/oauth-dance.js";
import { type TestServer, startTestServer } from "../support/server.js";

const CALLBACK = "https://client.example/catalyst/callback";

describeEachBackend("OAuth legacy signing of the access-token request", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let marked: TestConsumer;
  let unmarked: TestConsumer;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    marked = { id: 0, key: "catalyst-key", secret: "catalyst-secret/+&=" };
    const app = await server.store.transaction((tx) =>
      tx.apps.insert({
        name: "Catalyst",
        consumerKey: marked.key,
        consumerSecret: marked.secret,
        accessLevel: "write",
        legacySigning: true,
        createdAt: server.clock.now(),
      }),
    );
    marked = { ...marked, id: app.id };
    unmarked = await server.factories.app("write");
  });
  after(() => server.close());

  /**
   * A request signed as the Perl module signs it: HMAC-SHA1 keyed with `consumer_secret&` (an
   * empty token secret), the OAuth parameters in the Authorization header.
   */
  function legacySigned(url: string, method: string, consumer: KeyPair, extra: Record<string, string>): string {
    const params: Record<string, string> = {
      oauth_consumer_key: consumer.key,
      oauth_nonce: randomBytes(8).toString("hex"),
      oauth_signature_method: "HMAC-SHA1",
      oauth_timestamp: String(Math.floor(server.clock.now() / 1000)),
      oauth_version: "1.0",
      ...extra,
    };
    const target = new URL(url);
    const pairs = [...Object.entries(params), ...target.searchParams.entries()].map(([k, v]) => [encode(k), encode(v)]);
    pairs.sort(([a = "", x = ""], [b = "", y = ""]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
    const normalized = pairs.map(([k, v]) => `${k}=${v}`).join("&");
    const base = [method, encode(`${target.origin}${target.pathname}`), encode(normalized)].join("&");
    const signature = createHmac("sha1", `${encode(consumer.secret)}&`)
      .update(base)
      .digest("base64");
    const header = Object.entries({ ...params, oauth_signature: signature })
      .map(([k, v]) => `${encode(k)}="${encode(v)}"`)
      .join(", ");
    return `OAuth ${header}`;
  }

  async function legacyExchange(consumer: KeyPair, temporary: KeyPair, verifier: string): Promise<Answer> {
    const url = `${server.url}/oauth/token`;
    const authorization = legacySigned(url, "POST", consumer, { oauth_token: temporary.key, oauth_verifier: verifier });
    return request(url, { method: "POST", headers: { authorization } });
  }

  async function approved(consumer: KeyPair): Promise<{ temporary: KeyPair; verifier: string }> {
    const temporary = await initiate(server.url, server.clock, consumer, CALLBACK);
    const verifier = await approve(server.url, temporary, alice.email, PASSWORD);
    return { temporary, verifier };
  }

  const boardUrl = () => `${server.url}/api/board/V2?group=1:${group.id}`;

  it("accepts it for a marked application: the token it gets works, signed with its own secret", async () => {
    const { temporary, verifier } = await approved(marked);
    const token = issuedPair(await legacyExchange(marked, temporary, verifier));
    const board = await signedGet(boardUrl(), server.clock, marked, token);
    assert.equal(board.status, 200, board.text);
    assert.match(board.text, /<name>Alice<\/name>/);
    assertProblem(await legacyExchange(marked, temporary, verifier), "token_rejected");
  });

  it("refuses it for an application without the mark (the proper signature still works)", async () => {
    const { temporary, verifier } = await approved(unmarked);
    assertProblem(await legacyExchange(unmarked, temporary, verifier), "signature_invalid");
    const proper = await signedPost(`${server.url}/oauth/token`, server.clock, unmarked, temporary, {
      oauth_verifier: verifier,
    });
    assert.equal(proper.status, 200, proper.text);
  });

  it("refuses it with a wrong verifier, and before the person approved", async () => {
    const { temporary, verifier } = await approved(marked);
    assertProblem(await legacyExchange(marked, temporary, `${verifier}x`), "parameter_rejected");
    assertProblem(await legacyExchange(marked, temporary, "guess"), "parameter_rejected");
    const pending = await initiate(server.url, server.clock, marked, CALLBACK);
    assertProblem(await legacyExchange(marked, pending, "guess"), "signature_invalid");
    assert.equal((await legacyExchange(marked, temporary, verifier)).status, 200, "the right one still works");
  });

  it("refuses it everywhere but /oauth/token, even for the marked application", async () => {
    const { temporary, verifier } = await approved(marked);
    const token = issuedPair(await legacyExchange(marked, temporary, verifier));
    const url = boardUrl();
    const authorization = legacySigned(url, "GET", marked, { oauth_token: token.key });
    assertProblem(await request(url, { headers: { authorization } }), "signature_invalid");
    const post = `${server.url}/api/board/V2`;
    const posted = legacySigned(post, "POST", marked, { oauth_token: token.key });
    assertProblem(await request(post, { method: "POST", headers: { authorization: posted } }), "signature_invalid");
  });
});
