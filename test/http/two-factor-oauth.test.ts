// Two-factor sign-in and the API's ways in: xAuth is refused with a clear oauth_problem for an
// account that has a second factor or must have one (after a right password only); the authorize
// page asks for the second factor before it approves; personal tokens keep working.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { setTwoFactorRequired } from "../../src/services/two-factor/status.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestConsumer, type TestUser } from "../support/factories.js";
import { request } from "../support/http.js";
import { initiate, issuedPair, signedGet, signedPost } from "../support/oauth-dance.js";
import { assertProblem, parseForm } from "../support/oauth.js";
import { SoftAuthenticator, passkeyOptionsOfPage } from "../support/passkey.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp, totpCode } from "../support/totp.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("two-factor sign-in and OAuth", (backend) => {
  let server: TestServer;
  let app: TestConsumer;
  let user: TestUser;
  let secret = "";

  before(async () => {
    server = await startTestServer(backend);
    app = await server.factories.app("Z");
    user = await server.factories.user({ name: "Hana" });
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    ({ secret } = await enrolTotp(web, () => server.clock.now()));
  });
  after(() => server.close());

  const xAuth = (email: string, password: string) =>
    signedPost(`${server.url}/oauth/token`, server.clock, app, undefined, {
      x_auth_mode: "client_auth",
      x_auth_username: email,
      x_auth_password: password,
    });

  it("refuses xAuth for an account with a second factor, naming the problem, after a right password only", async () => {
    const refused = await xAuth(user.email, PASSWORD);
    assertProblem(refused, "additional_authorization_required");
    assert.match(
      parseForm(refused.text).oauth_problem_advice ?? "",
      /two-factor sign-in.*\/oauth\/authorize.*personal token/,
    );
    // A wrong password is told only that: nothing about the account's second factor.
    assertProblem(await xAuth(user.email, "wrong"), "permission_denied");
  });

  it("refuses xAuth for an account that must have a second factor and has none yet; allows it again once not required", async () => {
    const other = await server.factories.user();
    issuedPair(await xAuth(other.email, PASSWORD));
    await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, other.id, true);
    assertProblem(await xAuth(other.email, PASSWORD), "additional_authorization_required");
    await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, other.id, false);
    issuedPair(await xAuth(other.email, PASSWORD));
  });

  /** A new request token's authorize page, and a poster of its form (with the page's CSRF token). */
  async function openAuthorizePage() {
    const temporary = await initiate(server.url, server.clock, app, "https://client.example/done");
    const page = await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`);
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const post = (fields: Record<string, string>) =>
      fetch(`${server.url}/oauth/authorize`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ oauth_token: temporary.key, csrf_token: csrf, ...fields }).toString(),
      });
    return { temporary, post };
  }

  it("keeps personal tokens working", async () => {
    const feed = await request(`${server.url}/api/notification/V2`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    assert.equal(feed.status, 200);
  });

  it("asks for the second factor on the authorize page before approving", async () => {
    const { temporary, post } = await openAuthorizePage();
    const step = await post({ email: user.email, password: PASSWORD, decision: "approve" });
    assert.equal(step.status, 200);
    const html = await step.text();
    await assertValidHtml(html, "authorize second step");
    assert.match(html, /authenticator app/);
    const pending = /name="second_step" value="([^"]*)"/.exec(html)?.[1] ?? "";
    assert.ok(pending.length > 20);
    // Nothing is approved yet: the exchange is refused.
    const early = await signedPost(`${server.url}/oauth/token`, server.clock, app, temporary, { oauth_verifier: "x" });
    assertProblem(early, "permission_unknown");
    // A second step forged for another request, or a wrong code, approves nothing.
    const wrong = await post({ second_step: pending, code: "000000x", decision: "approve" });
    assert.equal(wrong.status, 400);
    assert.match(await wrong.text(), /The code is wrong/);
    const forged = await post({
      second_step: `${pending}x`,
      code: totpCode(secret, server.clock.now()),
      decision: "approve",
    });
    assert.match(await forged.text(), /took too long/);
    server.clock.advance(30_000);
    const approved = await post({
      second_step: pending,
      code: totpCode(secret, server.clock.now()),
      decision: "approve",
    });
    assert.equal(approved.status, 303);
    await approved.text();
    const verifier = new URL(approved.headers.get("location") ?? "").searchParams.get("oauth_verifier") ?? "";
    const token = issuedPair(
      await signedPost(`${server.url}/oauth/token`, server.clock, app, temporary, { oauth_verifier: verifier }),
    );
    const feed = await signedGet(`${server.url}/api/notification/V2`, server.clock, app, token);
    assert.equal(feed.status, 200);
  });

  it("takes a passkey as the second factor on the authorize page; a replayed answer approves nothing", async () => {
    const kei = await server.factories.user({ name: "Kei" });
    const web = new WebClient(server.url);
    await web.signIn(kei.email);
    const device = new SoftAuthenticator(server.url);
    const setup = await web.get("/account/two-factor");
    const added = await web.post("/account/passkeys/add", {
      name: "Key",
      response: device.create(passkeyOptionsOfPage(setup.html, "passkey-add")),
    });
    assert.equal(added.status, 303);
    const { post } = await openAuthorizePage();
    const step = await post({ email: kei.email, password: PASSWORD, decision: "approve" });
    assert.equal(step.status, 200);
    const html = await step.text();
    await assertValidHtml(html, "authorize second step with a passkey");
    assert.match(html, /Confirm with a passkey of /);
    assert.doesNotMatch(html, /name="code"/, "no authenticator app: no code field");
    const pending = /name="second_step" value="([^"]*)"/.exec(html)?.[1] ?? "";
    const answer = device.get(passkeyOptionsOfPage(html, "second-step-passkey"));
    const forged = await post({
      second_step: pending,
      decision: "approve",
      response: answer.replace(/"id":"/, '"id":"x'),
    });
    assert.equal(forged.status, 400);
    assert.match(await forged.text(), /not accepted/);
    const approved = await post({ second_step: pending, decision: "approve", response: answer });
    assert.equal(approved.status, 303);
    await approved.text();
    const replayed = await post({ second_step: pending, decision: "approve", response: answer });
    assert.notEqual(replayed.status, 303, "the credential is approved already, and the challenge spent");
    await replayed.text();
  });

  it("refuses the authorize page to an account that must have a second factor and has none", async () => {
    const other = await server.factories.user();
    await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, other.id, true);
    const temporary = await initiate(server.url, server.clock, app, "oob");
    const page = await request(`${server.url}/oauth/authorize?oauth_token=${encodeURIComponent(temporary.key)}`);
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? "";
    const answer = await fetch(`${server.url}/oauth/authorize`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        oauth_token: temporary.key,
        csrf_token: csrf,
        email: other.email,
        password: PASSWORD,
        decision: "approve",
      }).toString(),
    });
    assert.equal(answer.status, 403);
    assert.match(await answer.text(), /requires two-factor sign-in/);
  });
});
