// Passkeys over real HTTP, answered by a software authenticator as a browser would: adding one on
// the two-factor page, signing in with one alone, one as the second step after the password, a
// site policy satisfied by one, removing one; and every bad answer (an expired or reused
// challenge, another page's, another account's passkey, a removed one) refused with nothing changed.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { PASSKEY_CHALLENGE_MS } from "../../src/domain/passkey.js";
import { updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { removeTwoFactorAsOperator } from "../../src/services/two-factor/two-factor-admin.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD, type TestUser } from "../support/factories.js";
import { SoftAuthenticator, passkeyOptionsOfPage } from "../support/passkey.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { WebClient, assertValidHtml } from "../support/web.js";

describeEachBackend("web passkeys", (backend) => {
  let server: TestServer;
  let user: TestUser;
  let other: TestUser;
  let device: SoftAuthenticator;
  let otherDevice: SoftAuthenticator;

  before(async () => {
    server = await startTestServer(backend);
    user = await server.factories.user({ name: "Pia Passkey" });
    other = await server.factories.user({ name: "Oto Other" });
    device = new SoftAuthenticator(server.url);
    otherDevice = new SoftAuthenticator(server.url);
  });
  after(() => server.close());

  const settingsContext = () => ({
    store: server.store,
    blobs: server.blobs,
    clock: server.clock,
    config: { locale: "en" as const, timeZone: "UTC", allowSignup: false },
  });
  const passkeysOf = (userId: number) => server.store.read((tx) => tx.passkeys.listOf(userId));
  const auditActions = async (userId: number) =>
    (await server.store.read((tx) => tx.auditEvents.list({ limit: 200 })))
      .filter((row) => row.target_id === String(userId) && row.action.startsWith("passkey."))
      .map((row) => row.action);
  const sessionsOf = (web: WebClient) => web.cookie("kairan_session");

  /** Signs `web` in with Pia's passkey. */
  async function passkeySignIn(web: WebClient): Promise<void> {
    const options = passkeyOptionsOfPage((await web.get("/signin")).html, "passkey-sign-in");
    const answer = await web.post("/signin/passkey", { response: device.get(options) });
    assert.equal(answer.status, 303, answer.html.slice(0, 300));
  }

  /** Adds a passkey named `name` from the two-factor page of `web` with `authenticator`. */
  async function addPasskey(web: WebClient, authenticator: SoftAuthenticator, name: string) {
    const page = await web.get("/account/two-factor");
    return web.post("/account/passkeys/add", {
      name,
      response: authenticator.create(passkeyOptionsOfPage(page.html, "passkey-add")),
    });
  }

  it("adds a passkey from the two-factor page: named, listed, audited", async () => {
    const web = new WebClient(server.url);
    await web.signIn(user.email);
    const page = await web.get("/account/two-factor");
    await assertValidHtml(page.html, "two-factor page with passkeys");
    assert.match(page.html, /id="passkeys-none"/);
    assert.match(page.html, /<form [^>]*id="passkey-add" data-passkey="create"[^>]* hidden>/, "hidden without script");
    const options = passkeyOptionsOfPage(page.html, "passkey-add");
    assert.equal((options.rp as { id: string }).id, "127.0.0.1", "the RP ID is the public address's host");
    assert.deepEqual(options.authenticatorSelection, {
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "required",
    });
    const added = await web.post("/account/passkeys/add", { name: " Laptop ", response: device.create(options) });
    assert.equal(added.status, 303, added.html.slice(0, 500));
    assert.equal(added.location, "/account/two-factor?saved=passkeys#passkeys");
    const listed = await web.get("/account/two-factor?saved=passkeys");
    await assertValidHtml(listed.html, "passkey list");
    assert.match(listed.html, /The passkey was added\./);
    assert.match(listed.html, /<tr><td>Laptop<\/td><td><time [^>]+>[^<]+<\/time><\/td><td>Never<\/td><\/tr>/);
    const [stored] = await passkeysOf(user.id);
    assert.equal(stored?.name, "Laptop");
    assert.equal(stored?.counter, 0);
    assert.deepEqual(stored?.transports, ["internal"]);
    // The next page excludes it: an authenticator is asked not to make a second one for this account.
    const again = passkeyOptionsOfPage((await web.get("/account/two-factor")).html, "passkey-add");
    assert.deepEqual(
      (again.excludeCredentials as { id: string }[]).map((c) => c.id),
      [stored?.credentialId],
    );
    assert.deepEqual(await auditActions(user.id), ["passkey.add"]);
    assert.match((await web.get("/account")).html, /On with passkeys:/);
  });

  it("refuses bad additions, each changing nothing: a name, a reused, expired or foreign challenge, a forged answer", async () => {
    const web = new WebClient(server.url);
    await passkeySignIn(web);
    const elsewhere = new WebClient(server.url);
    await passkeySignIn(elsewhere);
    const before = await passkeysOf(user.id);
    const refuse = async (status: number, pattern: RegExp, fields: () => Promise<Record<string, string>>) => {
      const answer = await web.post("/account/passkeys/add", await fields());
      assert.equal(answer.status, status, answer.html.slice(0, 300));
      assert.match(answer.html, pattern);
      assert.deepEqual(await passkeysOf(user.id), before);
    };
    const fresh = async () => passkeyOptionsOfPage((await web.get("/account/two-factor")).html, "passkey-add");
    const spare = new SoftAuthenticator(server.url);
    await refuse(400, /Name the passkey/, async () => ({ name: "  ", response: spare.create(await fresh()) }));
    await refuse(400, /Name the passkey/, async () => ({
      name: "x".repeat(61),
      response: spare.create(await fresh()),
    }));
    await refuse(400, /control characters/, async () => ({ name: "a\u202eb", response: spare.create(await fresh()) }));
    await refuse(400, /not accepted/, async () => ({ name: "Forged", response: "{not json" }));
    await refuse(400, /not accepted/, async () => ({ name: "Forged", response: "" }));
    await refuse(400, /not accepted/, async () => ({
      name: "Elsewhere",
      response: spare.create(await fresh(), { origin: "https://evil.example" }),
    }));
    await refuse(400, /not accepted/, async () => ({
      name: "Unverified",
      response: spare.create(await fresh(), { userVerified: false }),
    }));
    // Expired: answered after five minutes.
    await refuse(400, /expired or was used/, async () => {
      const options = await fresh();
      server.clock.advance(PASSKEY_CHALLENGE_MS + 1);
      return { name: "Late", response: spare.create(options) };
    });
    // Another session's challenge: bound to the session that was shown it.
    const foreign = passkeyOptionsOfPage((await elsewhere.get("/account/two-factor")).html, "passkey-add");
    await refuse(400, /expired or was used/, async () => {
      await web.get("/account/two-factor");
      return { name: "Foreign", response: spare.create(foreign) };
    });
    // Reused: the same challenge answered twice adds one passkey only.
    const options = await fresh();
    const first = await web.post("/account/passkeys/add", { name: "Phone", response: spare.create(options) });
    assert.equal(first.status, 303);
    const count = (await passkeysOf(user.id)).length;
    await web.get("/account/two-factor");
    const reused = await web.post("/account/passkeys/add", { name: "Phone 2", response: spare.create(options) });
    assert.equal(reused.status, 400);
    assert.match(reused.html, /expired or was used/);
    assert.equal((await passkeysOf(user.id)).length, count);
  });

  it("signs in with a passkey alone: both factors, no password", async () => {
    const counter = (await passkeysOf(user.id)).find((p) => p.name === "Laptop")?.counter ?? -1;
    const web = new WebClient(server.url);
    const signin = await web.get("/signin?next=%2Fnotifications");
    await assertValidHtml(signin.html, "sign-in with passkey");
    const options = passkeyOptionsOfPage(signin.html, "passkey-sign-in");
    assert.equal(options.userVerification, "required");
    assert.deepEqual(options.allowCredentials, [], "usernameless: the authenticator picks the account");
    await server.store.transaction((tx) => tx.users.update(user.id, { timeZone: null }));
    const answer = await web.post("/signin/passkey", {
      next: "/notifications",
      response: device.get(options),
      timeZone: "Asia/Tokyo",
    });
    assert.equal(answer.status, 303, answer.html.slice(0, 500));
    assert.equal(answer.location, "/notifications");
    assert.match(signin.html, /<input type="hidden" name="timeZone" value="" data-browser-zone>\n<p class="help">/);
    // The form's zone is taken by an account without one, as after a password; another is offered.
    assert.equal((await server.store.read((tx) => tx.users.findPreferences(user.id)))?.timeZone, "Asia/Tokyo");
    const other = new WebClient(server.url);
    const again = await other.post("/signin/passkey", {
      response: device.get(passkeyOptionsOfPage((await other.get("/signin")).html, "passkey-sign-in")),
      timeZone: "Europe/Berlin",
    });
    assert.equal(again.status, 303);
    assert.equal(decodeURIComponent(other.cookie("kairan_zone_offer") ?? ""), "Europe/Berlin");
    assert.equal((await server.store.read((tx) => tx.users.findPreferences(user.id)))?.timeZone, "Asia/Tokyo");
    assert.equal((await web.get("/notifications")).status, 200);
    const [signIn] = await server.store.read((tx) => tx.auditEvents.list({ actions: ["sign-in"], limit: 1 }));
    assert.equal(signIn?.target_id, String(user.id));
    assert.deepEqual(JSON.parse(signIn?.details ?? "{}"), { via: "web", passkey: true });
    const laptop = (await passkeysOf(user.id)).find((p) => p.name === "Laptop");
    assert.equal(laptop?.counter, counter + 2, "the signature counter is kept (two sign-ins above)");
    assert.equal(laptop?.lastUsedAt, server.clock.now());
  });

  it("refuses passkey sign-ins that prove nothing, opening no session", async () => {
    const attempt = async (make: (options: Record<string, unknown>) => string, pattern: RegExp, status = 400) => {
      const web = new WebClient(server.url);
      const options = passkeyOptionsOfPage((await web.get("/signin")).html, "passkey-sign-in");
      const answer = await web.post("/signin/passkey", { response: make(options) });
      assert.equal(answer.status, status, answer.html.slice(0, 300));
      assert.match(answer.html, pattern);
      assert.equal(sessionsOf(web), undefined);
      return web;
    };
    // A credential this site never registered.
    const stranger = new SoftAuthenticator(server.url);
    stranger.create({ rp: { id: "127.0.0.1" }, user: { id: "AAAA" }, challenge: "AAAA" });
    await attempt((options) => stranger.get(options), /not accepted/);
    // Expired.
    await attempt((options) => {
      server.clock.advance(PASSKEY_CHALLENGE_MS + 1);
      return device.get(options);
    }, /expired or was used/);
    // Another sign-in page's challenge.
    const otherPage = passkeyOptionsOfPage((await new WebClient(server.url).get("/signin")).html, "passkey-sign-in");
    await attempt(() => device.get(otherPage), /expired or was used/);
    // Wrong origin.
    await attempt((options) => device.get(options, { origin: "https://evil.example" }), /not accepted/);
    // Garbage.
    await attempt(() => '{"id":1}', /not accepted/);
    // Without the form's token: refused before anything.
    const web = new WebClient(server.url);
    const options = passkeyOptionsOfPage((await web.get("/signin")).html, "passkey-sign-in");
    const forged = await web.post("/signin/passkey", { response: device.get(options) }, { csrf: "forged" });
    assert.equal(forged.status, 403);
    assert.equal(sessionsOf(web), undefined);
  });

  it("asks for a passkey as the second step after the password; another account's passkey is refused", async () => {
    const ownWeb = new WebClient(server.url);
    await ownWeb.signIn(other.email);
    assert.equal((await addPasskey(ownWeb, otherDevice, "Oto's key")).status, 303);

    const web = new WebClient(server.url);
    await web.get("/signin");
    const password = await web.post("/signin", { email: user.email, password: PASSWORD, next: "/notifications" });
    assert.equal(password.status, 303);
    assert.equal(password.location, "/signin/second-factor?next=%2Fnotifications", "a passkey is a second factor");
    assert.equal(sessionsOf(web), undefined);
    const step = await web.get("/signin/second-factor?next=%2Fnotifications");
    await assertValidHtml(step.html, "second step with a passkey");
    assert.match(step.html, /Confirm with a passkey of /);
    assert.doesNotMatch(step.html, /name="code"/, "no TOTP: no code field");
    const options = passkeyOptionsOfPage(step.html, "second-step-passkey");
    const laptop = (await passkeysOf(user.id)).find((p) => p.name === "Laptop");
    assert.deepEqual(
      (options.allowCredentials as { id: string }[]).some((c) => c.id === laptop?.credentialId),
      true,
    );
    // Oto's passkey answers Pia's second step: refused.
    const foreign = await web.post("/signin/second-factor/passkey", {
      next: "/notifications",
      response: otherDevice.get({ ...options, allowCredentials: [] }),
    });
    assert.equal(foreign.status, 400);
    assert.match(foreign.html, /not accepted/);
    assert.equal(sessionsOf(web), undefined);
    const mine = passkeyOptionsOfPage(foreign.html, "second-step-passkey");
    const answer = device.get(mine);
    const done = await web.post("/signin/second-factor/passkey", { next: "/notifications", response: answer });
    assert.equal(done.status, 303, done.html.slice(0, 300));
    assert.equal(done.location, "/notifications");
    const [signIn] = await server.store.read((tx) => tx.auditEvents.list({ actions: ["sign-in"], limit: 1 }));
    assert.deepEqual(JSON.parse(signIn?.details ?? "{}"), { via: "web", secondFactor: "passkey" });

    // The same answer again, in another browser at its own second step: refused (bound and spent).
    const again = new WebClient(server.url);
    await again.get("/signin");
    await again.post("/signin", { email: user.email, password: PASSWORD });
    await again.get("/signin/second-factor");
    const replay = await again.post("/signin/second-factor/passkey", { response: answer });
    assert.equal(replay.status, 400);
    assert.equal(sessionsOf(again), undefined);
  });

  it("satisfies a site policy that requires two-factor; an enrolling person may add one", async () => {
    await updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, { twoFactorPolicy: "everyone" });
    try {
      const web = new WebClient(server.url);
      await web.signIn(user.email).catch(() => undefined);
      // Pia has a passkey: her sign-in needs it, then she is free.
      const options = passkeyOptionsOfPage((await web.get("/signin")).html, "passkey-sign-in");
      assert.equal((await web.post("/signin/passkey", { response: device.get(options) })).status, 303);
      assert.equal((await web.get("/")).status, 200);

      const carol = await server.factories.user({ name: "Carol" });
      const enrolling = new WebClient(server.url);
      await enrolling.get("/signin");
      await enrolling.post("/signin", { email: carol.email, password: PASSWORD });
      assert.equal((await enrolling.get("/")).location, "/account/two-factor");
      const carolDevice = new SoftAuthenticator(server.url);
      assert.equal((await addPasskey(enrolling, carolDevice, "Carol's phone")).status, 303);
      assert.equal((await enrolling.get("/")).status, 200, "free once a passkey is added");
      // Her only second factor cannot go while required.
      const page = await enrolling.get("/account/two-factor");
      const [only] = await passkeysOf(carol.id);
      const refused = await enrolling.post("/account/passkeys/remove", { passkey: String(only?.id), proof: PASSWORD });
      assert.equal(refused.status, 403, page.status.toString());
      assert.match(refused.html, /required for your account/);
      assert.equal((await passkeysOf(carol.id)).length, 1);
    } finally {
      await updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, { twoFactorPolicy: "optional" });
    }
  });

  it("removes a passkey with the password; a wrong proof or another's passkey changes nothing; a removed one signs in no more", async () => {
    const web = new WebClient(server.url);
    const options = passkeyOptionsOfPage((await web.get("/signin")).html, "passkey-sign-in");
    assert.equal((await web.post("/signin/passkey", { response: device.get(options) })).status, 303);
    const page = await web.get("/account/two-factor");
    assert.match(page.html, /id="passkey-remove"/);
    const laptop = (await passkeysOf(user.id)).find((p) => p.name === "Laptop");
    const [otos] = await passkeysOf(other.id);
    const before = await passkeysOf(user.id);
    const wrong = await web.post("/account/passkeys/remove", { passkey: String(laptop?.id), proof: "not it" });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /nothing changed/);
    await web.get("/account/two-factor");
    const foreign = await web.post("/account/passkeys/remove", { passkey: String(otos?.id), proof: PASSWORD });
    assert.equal(foreign.status, 404);
    await web.get("/account/two-factor");
    const bogus = await web.post("/account/passkeys/remove", { passkey: "1e3", proof: PASSWORD });
    assert.equal(bogus.status, 404);
    assert.deepEqual(await passkeysOf(user.id), before);
    assert.equal((await passkeysOf(other.id)).length, 1);

    await web.get("/account/two-factor");
    const removed = await web.post("/account/passkeys/remove", { passkey: String(laptop?.id), proof: PASSWORD });
    assert.equal(removed.status, 303);
    assert.equal(removed.location, "/account/two-factor?saved=passkey-remove#passkey-remove");
    assert.ok(!(await passkeysOf(user.id)).some((p) => p.id === laptop?.id));
    assert.equal((await auditActions(user.id)).at(0), "passkey.remove");

    const after = new WebClient(server.url);
    const signin = passkeyOptionsOfPage((await after.get("/signin")).html, "passkey-sign-in");
    const credential = device.credentials[0];
    const refused = await after.post("/signin/passkey", { response: device.get(signin, { credential }) });
    assert.equal(refused.status, 400);
    assert.equal(sessionsOf(after), undefined);
  });

  it("kairan user remove-two-factor removes the passkeys too", async () => {
    assert.equal((await passkeysOf(other.id)).length, 1);
    const done = await removeTwoFactorAsOperator(
      { store: server.store, blobs: server.blobs, clock: server.clock },
      other.email,
    );
    assert.equal(done.changed, true);
    assert.equal((await passkeysOf(other.id)).length, 0);
    const [row] = await server.store.read((tx) => tx.auditEvents.list({ actions: ["two-factor.disable"], limit: 1 }));
    assert.deepEqual(JSON.parse(row?.details ?? "{}"), { passkeysRemoved: 1 });
    const web = new WebClient(server.url);
    await web.signIn(other.email);
  });
});
