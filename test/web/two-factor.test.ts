// Two-factor sign-in over real HTTP, codes computed in the test as an authenticator app would:
// enrolment (QR code and secret, confirmed by a code, ten recovery codes shown once), the second
// step that alone opens the session, replayed codes refused, recovery codes used once, new codes,
// turning it off, the wrong-code limit, and the site's policy leading a person to enrolment.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { SECOND_FACTOR_FAILURES_MAX } from "../../src/domain/two-factor.js";
import { issueLink } from "../../src/services/account/account-links.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { setTwoFactorRequired } from "../../src/services/two-factor/status.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp, recoveryCodesOfPage, secretOfPage, totpCode } from "../support/totp.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web two-factor sign-in", (backend) => {
  let server: TestServer;
  let user: TestUser;
  let secret = "";
  let recovery: string[] = [];

  before(async () => {
    server = await startTestServer(backend);
    user = await server.factories.user({ name: "Tomo Tanaka" });
  });
  after(() => server.close());

  const settingsContext = () => ({
    store: server.store,
    blobs: server.blobs,
    clock: server.clock,
    config: { locale: "en" as const, timeZone: "UTC", allowSignup: false },
  });
  /** The audit rows about `userId` but their sign-ins (which every session writes). */
  const auditActions = async (userId: number) =>
    (await server.store.read((tx) => tx.auditEvents.list({ limit: 100 })))
      .filter((row) => row.target_id === String(userId) && row.action !== "sign-in")
      .map((row) => `${row.action}:${row.outcome}`);

  /** Signs in with the password; returns the client, at the second step. */
  async function passwordStep(email: string): Promise<WebClient> {
    const web = new WebClient(server.url);
    await web.get("/signin");
    const answer = await web.post("/signin", { email, password: PASSWORD, next: "/notifications" });
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/signin/second-factor?next=%2Fnotifications");
    assert.equal(web.cookie("kairan_session"), undefined, "no session before the second factor");
    return web;
  }

  it("sets up an authenticator app: QR code and secret, confirmed by a code, ten recovery codes once", async () => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    const account = await web.get("/account");
    assert.match(account.html, /<h2 id="two-factor-title">Two-factor sign-in<\/h2>/);
    assert.match(account.html, /Off: your password alone signs you in\./);
    const setup = await web.get("/account/two-factor");
    await assertValidHtml(setup.html, "two-factor page");
    assert.equal((await web.post("/account/two-factor/start")).status, 303);
    const pending = await web.get("/account/two-factor");
    await assertValidHtml(pending.html, "two-factor enrolment");
    assert.match(
      pending.html,
      /<figure class="qr-code" role="img" aria-label="[^"]+"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"/,
    );
    secret = secretOfPage(pending.html);
    assert.equal(secret.length, 32, "160 bits in base32");
    // The stored secret is sealed: the database never holds it in the clear.
    const stored = await server.store.read((tx) => tx.twoFactor.findTotp(user.id));
    assert.ok(stored && !stored.sealed.includes(secret) && stored.confirmedAt === null);

    const wrong = await web.post("/account/two-factor/confirm", {
      code: "000000" === totpCode(secret, server.clock.now()) ? "111111" : "000000",
    });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /The code is wrong, expired or already used\./);
    await web.get("/account/two-factor");
    const done = await web.post("/account/two-factor/confirm", { code: totpCode(secret, server.clock.now()) });
    assert.equal(done.status, 200);
    assert.equal(done.headers.get("cache-control"), "no-store");
    await assertValidHtml(done.html, "recovery codes");
    recovery = recoveryCodesOfPage(done.html);
    assert.equal(recovery.length, 10);
    assert.equal(new Set(recovery).size, 10);
    for (const code of recovery) assert.match(code, /^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);

    const after = await web.get("/account/two-factor");
    assert.match(after.html, /On: sign-in asks for a code/);
    assert.match(after.html, /Recovery codes left: 10/);
    assert.doesNotMatch(after.html, /totp-secret|<svg/, "the secret is never shown again");
    assert.equal((await web.post("/account/two-factor/start")).status, 409, "already on");
    assert.deepEqual(await auditActions(user.id), ["two-factor.enable:done"]);
  });

  it("asks for the code after the password; only the second step opens the session", async () => {
    const web = await passwordStep(user.email);
    const gated = await web.get("/");
    assert.equal(gated.status, 303);
    assert.match(gated.location ?? "", /^\/signin\?next=/);
    const step = await web.get("/signin/second-factor?next=%2Fnotifications");
    assert.equal(step.status, 200);
    await assertValidHtml(step.html, "second step");
    assert.match(step.html, new RegExp(user.email.replace(".", "\\.")));
    // The code of the step that confirmed the enrolment was used: replayed, it is refused.
    const replay = await web.post("/signin/second-factor", {
      code: totpCode(secret, server.clock.now()),
      next: "/notifications",
    });
    assert.equal(replay.status, 400);
    assert.match(replay.html, /already used/);
    server.clock.advance(30_000);
    const code = totpCode(secret, server.clock.now());
    const signedIn = await web.post("/signin/second-factor", { code, next: "/notifications" });
    assert.equal(signedIn.status, 303);
    assert.equal(signedIn.location, "/notifications");
    assert.equal((await web.get("/notifications")).status, 200);
    const [signIn] = (await server.store.read((tx) => tx.auditEvents.list({ actions: ["sign-in"], limit: 1 }))) ?? [];
    assert.equal(signIn?.target_id, String(user.id), "the session's opening is audited, at the second step");
    assert.deepEqual(JSON.parse(signIn.details), { via: "web", secondFactor: "totp" });

    // The same code again, in another browser: refused (each code works once).
    const other = await passwordStep(user.email);
    await other.get("/signin/second-factor");
    assert.equal((await other.post("/signin/second-factor", { code })).status, 400);
    // The next step's code works; one step late (a slow typist) works too.
    server.clock.advance(30_000);
    const late = totpCode(secret, server.clock.now());
    server.clock.advance(30_000);
    assert.equal((await other.post("/signin/second-factor", { code: late })).status, 303);
  });

  it("accepts a code one step either side, and none further", async () => {
    server.clock.advance(120_000);
    const base = server.clock.now();
    const web = await passwordStep(user.email);
    await web.get("/signin/second-factor");
    assert.equal((await web.post("/signin/second-factor", { code: totpCode(secret, base + 60_000) })).status, 400);
    assert.equal((await web.post("/signin/second-factor", { code: totpCode(secret, base - 60_000) })).status, 400);
    assert.equal((await web.post("/signin/second-factor", { code: totpCode(secret, base + 30_000) })).status, 303);
  });

  it("takes a recovery code once, in any case and with or without dashes", async () => {
    const first = recovery[0] ?? "";
    const web = await passwordStep(user.email);
    await web.get("/signin/second-factor");
    assert.equal(
      (await web.post("/signin/second-factor", { code: first.replace(/-/g, " ").toUpperCase() })).status,
      303,
    );
    const again = await passwordStep(user.email);
    await again.get("/signin/second-factor");
    const refused = await again.post("/signin/second-factor", { code: first });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /already used/);
    const actions = await auditActions(user.id);
    assert.equal(actions.filter((a) => a === "two-factor.recovery-code:done").length, 1);
    const page = await web.get("/account/two-factor");
    assert.match(page.html, /Recovery codes left: 9/);
  });

  it("makes new recovery codes with the password or a code; the old ones stop working", async () => {
    const web = new WebClient(server.url);
    await web.get("/signin");
    await web.post("/signin", { email: user.email, password: PASSWORD });
    await web.get("/signin/second-factor");
    await web.post("/signin/second-factor", { code: recovery[1] ?? "" });
    await web.get("/account/two-factor");
    const wrong = await web.post("/account/two-factor/recovery-codes", { proof: "not it" });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /Neither a current code nor your password/);
    await web.get("/account/two-factor");
    const fresh = await web.post("/account/two-factor/recovery-codes", { proof: PASSWORD });
    assert.equal(fresh.status, 200);
    const codes = recoveryCodesOfPage(fresh.html);
    assert.equal(codes.length, 10);
    const old = await passwordStep(user.email);
    await old.get("/signin/second-factor");
    assert.equal((await old.post("/signin/second-factor", { code: recovery[2] ?? "" })).status, 400);
    assert.equal((await old.post("/signin/second-factor", { code: codes[0] ?? "" })).status, 303);
    recovery = codes.slice(1);
  });

  it(`refuses the second step after ${SECOND_FACTOR_FAILURES_MAX} wrong codes, even with the right one`, async () => {
    server.clock.advance(16 * 60_000);
    const web = await passwordStep(user.email);
    await web.get("/signin/second-factor");
    for (let i = 0; i < SECOND_FACTOR_FAILURES_MAX; i++)
      assert.equal((await web.post("/signin/second-factor", { code: "12345" + String(i) })).status, 400);
    const throttled = await web.post("/signin/second-factor", { code: totpCode(secret, server.clock.now()) });
    assert.equal(throttled.status, 429);
    assert.ok(Number(throttled.headers.get("retry-after")) > 0);
    server.clock.advance(15 * 60_000);
    const fresh = await passwordStep(user.email);
    await fresh.get("/signin/second-factor");
    assert.equal(
      (await fresh.post("/signin/second-factor", { code: totpCode(secret, server.clock.now()) })).status,
      303,
    );
  });

  it("forgets a second step after 10 minutes: sign in again", async () => {
    const web = await passwordStep(user.email);
    await web.get("/signin/second-factor");
    server.clock.advance(10 * 60_000 + 1);
    const late = await web.post("/signin/second-factor", { code: totpCode(secret, server.clock.now()) });
    assert.equal(late.status, 303);
    assert.equal(late.location, "/signin?expired=1");
    assert.match((await web.get("/signin?expired=1")).html, /took too long/);
  });

  it("turns it off with a code; the password alone signs in again", async () => {
    server.clock.advance(60_000);
    const web = await passwordStep(user.email);
    await web.get("/signin/second-factor");
    await web.post("/signin/second-factor", { code: recovery[0] ?? "" });
    await web.get("/account/two-factor");
    assert.equal((await web.post("/account/two-factor/disable", { proof: "000000x" })).status, 400);
    await web.get("/account/two-factor");
    const off = await web.post("/account/two-factor/disable", { proof: totpCode(secret, server.clock.now()) });
    assert.equal(off.status, 303);
    assert.match((await web.get("/account/two-factor?saved=disable")).html, /Two-factor sign-in is off\./);
    const plain = new WebClient(server.url);
    await plain.signIn(user.email);
    assert.equal(await server.store.read((tx) => tx.twoFactor.findTotp(user.id)), undefined);
    assert.equal((await server.store.read((tx) => tx.twoFactor.state(user.id))).recoveryCodesLeft, 0);
    assert.ok((await auditActions(user.id)).includes("two-factor.disable:done"));
  });

  it("a password reset by mail still takes the second step before the session opens", async () => {
    const erin = await server.factories.user({ name: "Erin" });
    const own = new WebClient(server.url);
    await own.signIn(erin.email);
    const { secret: erinSecret } = await enrolTotp(own, () => server.clock.now());
    const link = await server.store.transaction((tx) =>
      issueLink(
        tx,
        { purpose: "password-reset", userId: erin.id, email: null, lifetimeMs: 60 * 60 * 1000 },
        server.clock.now(),
      ),
    );
    const web = new WebClient(server.url);
    await web.get(`/password/reset/${link.secret}`);
    const reset = await web.post(`/password/reset/${link.secret}`, {
      password: "a new password",
      repeat: "a new password",
    });
    assert.equal(reset.status, 303);
    assert.equal(reset.location, "/signin/second-factor?next=%2Faccount%3Fsaved%3Dpassword%23password");
    assert.equal(web.cookie("kairan_session"), undefined);
    await web.get("/signin/second-factor");
    server.clock.advance(30_000);
    const done = await web.post("/signin/second-factor", {
      code: totpCode(erinSecret, server.clock.now()),
      next: "/account?saved=password#password",
    });
    assert.equal(done.status, 303);
    assert.equal(done.location, "/account?saved=password#password");
  });

  it("leads a person the policy requires to enrolment, and lets them do nothing else until done", async () => {
    const carol = await server.factories.user({ name: "Carol" });
    await updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, { twoFactorPolicy: "everyone" });
    try {
      const web = new WebClient(server.url);
      await web.get("/signin");
      const answer = await web.post("/signin", { email: carol.email, password: PASSWORD });
      assert.equal(answer.status, 303);
      const home = await web.get("/");
      assert.equal(home.status, 303);
      assert.equal(home.location, "/account/two-factor");
      const setup = await web.get("/account/two-factor");
      assert.match(setup.html, /id="must-enrol"/);
      await assertValidHtml(setup.html, "forced enrolment");
      assert.equal((await web.get("/m/g/1:1/board")).location, "/m/account/two-factor");
      const refused = await web.post("/account/names", { name: "Mallory" });
      assert.equal(refused.status, 403);
      await web.get("/account/two-factor");
      await web.post("/account/two-factor/start");
      const pending = await web.get("/account/two-factor");
      const carolSecret = secretOfPage(pending.html);
      const done = await web.post("/account/two-factor/confirm", { code: totpCode(carolSecret, server.clock.now()) });
      assert.equal(done.status, 200);
      assert.equal((await web.get("/")).status, 200, "free once enrolled");
      // Required: it cannot be turned off.
      const page = await web.get("/account/two-factor");
      assert.doesNotMatch(page.html, /id="disable"/);
      const off = await web.post("/account/two-factor/disable", { proof: PASSWORD });
      assert.equal(off.status, 403);
      assert.match(off.html, /required for your account/);
    } finally {
      await updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, { twoFactorPolicy: "optional" });
    }
  });

  it("speaks Japanese on its pages", async () => {
    const web = new WebClient(server.url, "ja");
    await web.signIn(user.email);
    const setup = await web.get("/account/two-factor");
    assert.match(setup.html, /<h1>2 段階認証<\/h1>/);
    await assertValidHtml(setup.html, "Japanese two-factor page");
    await web.post("/account/two-factor/start");
    const pending = await web.get("/account/two-factor");
    assert.match(pending.html, /アプリの 6 桁のコード/);
    await assertValidHtml(pending.html, "Japanese enrolment");
  });

  it("an administrator's mark requires it of one account (policy optional)", async () => {
    const dave = await server.factories.user({ name: "Dave" });
    const web = new WebClient(server.url);
    await web.signIn(dave.email);
    assert.equal(await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, dave.id, true), true);
    assert.equal(await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, dave.id, true), false, "already required");
    // A session opened before the mark is held to it at once.
    assert.equal((await web.get("/")).location, "/account/two-factor");
    assert.equal(await setTwoFactorRequired(server, COMMAND_LINE_ACTOR, dave.id, false), true);
    assert.equal((await web.get("/")).status, 200);
    const rows = (await server.store.read((tx) => tx.auditEvents.list({ limit: 100 }))).filter(
      (row) => row.target_id === String(dave.id) && row.action !== "sign-in",
    );
    assert.equal(rows.length, 2);
    assert.deepEqual(JSON.parse(rows[0]?.details ?? "{}"), { twoFactorRequired: { before: true, after: false } });
  });
});
