// Passkey challenges: signed tokens bound to a ceremony and a binding, expiring after 5 minutes,
// spent once (a second spend is refused even within the time).
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { PASSKEY_CHALLENGE_MS } from "../../src/domain/passkey.js";
import {
  bindingOf,
  newChallenge,
  openChallenge,
  spendChallenge,
  userHandleOf,
} from "../../src/services/two-factor/passkey-challenge.js";
import { describeEachBackend } from "../support/backends.js";
import { type TestServer, startTestServer } from "../support/server.js";

describeEachBackend("passkey challenges", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server.close());

  const ctx = () => ({ store: server.store, blobs: server.blobs, clock: server.clock });
  const clientData = (token: string) =>
    Buffer.from(JSON.stringify({ challenge: Buffer.from(token).toString("base64url") })).toString("base64url");
  const invalid = (error: unknown) => (error as { code?: string }).code === "PASSKEY_CHALLENGE_INVALID";

  it("opens only for its ceremony and binding, before it expires", async () => {
    const binding = bindingOf("session", "token-a");
    const token = await newChallenge(ctx(), "register", binding);
    const opened = await openChallenge(ctx(), "register", binding, clientData(token));
    assert.equal(opened.challenge, Buffer.from(token).toString("base64url"));
    await assert.rejects(openChallenge(ctx(), "sign-in", binding, clientData(token)), invalid);
    await assert.rejects(openChallenge(ctx(), "register", bindingOf("session", "token-b"), clientData(token)), invalid);
    await assert.rejects(openChallenge(ctx(), "register", binding, "not base64 json"), invalid);
    await assert.rejects(openChallenge(ctx(), "register", binding, clientData(`${token}x`)), invalid);
    server.clock.advance(PASSKEY_CHALLENGE_MS - 1);
    await openChallenge(ctx(), "register", binding, clientData(token));
    server.clock.advance(1);
    await assert.rejects(openChallenge(ctx(), "register", binding, clientData(token)), invalid);
  });

  it("is spent once", async () => {
    const binding = bindingOf("sign-in-form", "form");
    const token = await newChallenge(ctx(), "sign-in", binding);
    const opened = await openChallenge(ctx(), "sign-in", binding, clientData(token));
    await server.store.transaction((tx) => spendChallenge(tx, opened, server.clock.now()));
    await assert.rejects(
      server.store.transaction((tx) => spendChallenge(tx, opened, server.clock.now())),
      invalid,
    );
  });

  it("gives each account one stable, opaque user handle", async () => {
    const one = Buffer.from(await userHandleOf(ctx(), 1));
    assert.equal(one.length, 16);
    assert.deepEqual(Buffer.from(await userHandleOf(ctx(), 1)), one);
    assert.notDeepEqual(Buffer.from(await userHandleOf(ctx(), 2)), one);
  });
});
