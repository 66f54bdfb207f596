// Bearer takes personal tokens only (docs/api.md "Authentication"): a token issued through OAuth
// (three-legged or xAuth) is public by design and works only with its signature; personal and
// seeded tokens work both ways.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import type { Group } from "../../src/domain/group.js";
import { loadSeed } from "../../src/seed/load.js";
import { validateSeed } from "../../src/seed/validate.js";
import { createPersonalToken } from "../../src/services/account/personal-token.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestConsumer, type TestUser, PASSWORD } from "../support/factories.js";
import { type Answer, assertError, request } from "../support/http.js";
import type { KeyPair } from "../support/oauth.js";
import { signedGet, threeLegged, xAuth } from "../support/oauth-dance.js";
import { type TestServer, startTestServer } from "../support/server.js";

const REFUSED = /Bearer takes a live personal token only/;

describeEachBackend("Bearer scope: personal and seeded tokens only", (backend) => {
  let server: TestServer;
  let alice: TestUser;
  let group: Group;
  let app: TestConsumer;

  before(async () => {
    server = await startTestServer(backend);
    alice = await server.factories.user({ name: "Alice" });
    group = await server.factories.group([alice]);
    app = await server.factories.app("Z");
  });
  after(() => server.close());

  const boardUrl = () => `${server.url}/api/board/V2?group=1:${group.id}`;
  const person = () => ({ email: alice.email, password: PASSWORD });

  /** GET (the feed cache's fast path) and POST (the ordinary path) with the token as Bearer. */
  async function asBearer(token: string): Promise<{ get: Answer; post: Answer }> {
    const get = await request(boardUrl(), { token });
    const post = await request(`${server.url}/api/board/V2`, { token, body: "" });
    return { get, post };
  }

  function assertRefused(answers: { get: Answer; post: Answer }): void {
    for (const answer of [answers.get, answers.post]) {
      assertError(answer, 401, "TOKEN_REJECTED");
      assert.match(answer.text, REFUSED);
    }
  }

  async function assertSignedWorks(consumer: KeyPair, token: KeyPair): Promise<void> {
    const answer = await signedGet(boardUrl(), server.clock, consumer, token);
    assert.equal(answer.status, 200, answer.text);
  }

  it("refuses a three-legged OAuth token as Bearer; it still works signed", async () => {
    const token = await threeLegged(server.url, server.clock, app, person());
    assertRefused(await asBearer(token.key));
    await assertSignedWorks(app, token);
  });

  it("refuses an xAuth token as Bearer; it still works signed", async () => {
    const token = await xAuth(server.url, server.clock, app, person());
    assertRefused(await asBearer(token.key));
    await assertSignedWorks(app, token);
  });

  it("answers an unknown token exactly as an OAuth-issued one (nothing tells whether it exists)", async () => {
    const issued = await asBearer((await xAuth(server.url, server.clock, app, person())).key);
    const unknown = await asBearer("no-such-token");
    assert.equal(unknown.get.text, issued.get.text);
    assert.equal(unknown.post.text, issued.post.text);
  });

  it("accepts a personal token as Bearer and signed", async () => {
    const answers = await asBearer(alice.token);
    assert.equal(answers.get.status, 200, answers.get.text);
    assert.equal(answers.post.status, 400, "authenticated: the empty body is what is refused");
    await assertSignedWorks(alice.consumer, { key: alice.token, secret: alice.tokenSecret });
  });

  it("accepts a personal token made on the settings page as Bearer", async () => {
    const actor = { user: alice, app: { id: app.id, name: "", consumerKey: app.key, accessLevel: "Z" as const } };
    const issued = await createPersonalToken(server, actor, { appId: app.id, label: "script" });
    assert.equal((await asBearer(issued.token)).get.status, 200);
  });

  it("accepts a seeded token as Bearer and signed", async () => {
    const seed = validateSeed({
      users: [{ ref: "sam", name: "Sam", email: "sam@bearer-seed.example", password: "pw-long-enough" }],
      apps: [{ ref: "ops", name: "Ops", consumerKey: "bearer-seed-key", consumerSecret: "bearer-seed-secret" }],
      tokens: [{ user: "sam", app: "ops", token: "bearer-seed-token", secret: "bearer-seed-token-secret" }],
      groups: [{ ref: "g", name: "Seeded", members: [{ user: "sam" }] }],
    });
    const loaded = await loadSeed(server, seed);
    const url = `${server.url}/api/board/V2?group=${loaded.groups.g}`;
    assert.equal((await request(url, { token: "bearer-seed-token" })).status, 200);
    const consumer = { key: "bearer-seed-key", secret: "bearer-seed-secret" };
    const signed = await signedGet(url, server.clock, consumer, {
      key: "bearer-seed-token",
      secret: "bearer-seed-token-secret",
    });
    assert.equal(signed.status, 200, signed.text);
  });
});
