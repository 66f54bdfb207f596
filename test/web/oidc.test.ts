// Single sign-on with OpenID Connect over real HTTP, against a real provider (oidc-provider 8) in
// this process, driven with fetch and cookies as a browser would: a new account made from the
// claims, an existing one linked by a verified address (and found by its subject after the address
// changed), the refusals (domain, unverified address, no account, disabled, a callback in another
// browser), the second step, the provider down (a clear page; the password still works), and the
// client secret never shown back nor written in the audit log. Both engines.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { COMMAND_LINE_ACTOR } from "../../src/domain/audit.js";
import { setUserDisabled } from "../../src/services/account/account-admin.js";
import { readClientSecret, updateSiteSettings } from "../../src/services/settings/site-settings.js";
import { describeEachBackend } from "../support/backends.js";
import { PASSWORD } from "../support/factories.js";
import { type TestProvider, signInAt, startTestProvider } from "../support/oidc-provider.js";
import { type TestServer, startTestServer } from "../support/server.js";
import { enrolTotp } from "../support/totp.js";
import { WebClient, assertValidHtml, textOfId } from "../support/web.js";

describeEachBackend("web single sign-on (OpenID Connect)", (backend) => {
  let server: TestServer;
  let provider: TestProvider;
  const settingsContext = () => ({
    store: server.store,
    blobs: server.blobs,
    clock: server.clock,
    config: { locale: "en" as const, timeZone: "UTC", allowSignup: false },
  });
  const configure = (changes: Record<string, unknown>) =>
    updateSiteSettings(settingsContext(), COMMAND_LINE_ACTOR, changes);
  const auditRows = async (action: string) =>
    (await server.store.read((tx) => tx.auditEvents.list({ actions: [action], limit: 100 }))).map((row) => ({
      ...row,
      parsed: JSON.parse(row.details) as Record<string, unknown>,
    }));

  /** Starts at Kairan, signs in at the provider as `login`, and answers Kairan's callback. */
  async function ssoSignIn(login: string, web = new WebClient(server.url), next = "/", timeZone?: string) {
    const zone = timeZone === undefined ? "" : `&timeZone=${encodeURIComponent(timeZone)}`;
    const start = await web.get(`/signin/oidc?next=${encodeURIComponent(next)}${zone}`);
    assert.equal(start.status, 303, start.html.slice(0, 300));
    assert.ok(start.location?.startsWith(`${provider.issuer}/`), `to the provider: ${start.location}`);
    const authorization = new URL(start.location ?? "");
    assert.equal(authorization.searchParams.get("code_challenge_method"), "S256");
    assert.ok(authorization.searchParams.get("state") && authorization.searchParams.get("nonce"));
    assert.equal(authorization.searchParams.get("redirect_uri"), `${server.url}/signin/oidc/callback`);
    const back = await signInAt(authorization.href, login);
    const answer = await web.get(`${back.pathname}${back.search}`);
    return { web, answer };
  }

  before(async () => {
    server = await startTestServer(backend);
    provider = await startTestProvider(`${server.url}/signin/oidc/callback`);
    provider.accounts.set("new-person", { email: "New.Person@corp.example", email_verified: true, name: "Nina New" });
    provider.accounts.set("existing", { email: "kei@corp.example", email_verified: true, name: "K. at provider" });
    provider.accounts.set("unverified", { email: "uma@corp.example", email_verified: false, name: "Uma" });
    provider.accounts.set("outsider", { email: "olga@elsewhere.example", email_verified: true, name: "Olga" });
    provider.accounts.set("disabled", { email: "dan@corp.example", email_verified: true, name: "Dan" });
    provider.accounts.set("second", { email: "sam@corp.example", email_verified: true, name: "Sam" });
  });
  after(async () => {
    await provider?.stop();
    await server?.close();
  });

  it("offers nothing until an administrator turns it on, and then a button", async () => {
    const off = await new WebClient(server.url).get("/signin");
    assert.doesNotMatch(off.html, /id="oidc-signin"/);
    assert.equal((await new WebClient(server.url).get("/signin/oidc")).status, 404);
    assert.equal((await new WebClient(server.url).get("/signin/oidc/callback?code=x&state=y")).status, 404);
    await assert.rejects(configure({ oidcEnabled: "on", oidcIssuer: provider.issuer }), {
      code: "OIDC_SETTINGS_INCOMPLETE",
      message: /the client id, the client secret/,
    });
    await configure({
      oidcEnabled: "on",
      oidcName: "Corp Login",
      oidcIssuer: provider.issuer,
      oidcClientId: provider.clientId,
      oidcClientSecret: provider.clientSecret,
      oidcCreateUsers: "on",
      oidcDomains: "corp.example",
    });
    const on = await new WebClient(server.url).get("/signin");
    assert.match(
      on.html,
      /<a class="button" data-browser-zone-link href="\/signin\/oidc\?next=%2F">Sign in with Corp Login<\/a>/,
    );
    await assertValidHtml(on.html, "sign-in page with single sign-on");
  });

  it("keeps the client secret sealed: never in a page nor in an audit row", async () => {
    assert.equal(await readClientSecret(settingsContext()), provider.clientSecret);
    const stored = await server.store.read((tx) => tx.siteSettings.all());
    assert.ok(!JSON.stringify(stored).includes(provider.clientSecret), "not stored in the clear");
    const rows = await auditRows("settings.change");
    assert.ok(rows.length > 0);
    for (const row of rows) assert.ok(!row.details.includes(provider.clientSecret), "not in the audit log");
    assert.deepEqual(rows[0]?.parsed["oidcClientSecret"], { changed: true });
    // A blank secret keeps the saved one.
    await configure({ oidcClientSecret: "", oidcName: "Corp Login" });
    assert.equal(await readClientSecret(settingsContext()), provider.clientSecret);
  });

  it("is set in the administration's form: checked, the secret never shown back, a blank one kept", async () => {
    const admin = await server.factories.user({ name: "Ada Admin" });
    await server.store.transaction((tx) => tx.users.update(admin.id, { siteAdmin: true }));
    const web = new WebClient(server.url);
    await web.signIn(admin.email);
    const page = await web.get("/admin/settings");
    assert.ok(!page.html.includes(provider.clientSecret), "the saved secret is not in the page");
    assert.match(page.html, /A secret is saved; it is never shown/);
    assert.match(page.html, new RegExp(`${server.url}/signin/oidc/callback`), "the redirect URI to register");
    await assertValidHtml(page.html, "settings with single sign-on");
    const form = {
      siteName: "Kairan",
      signupPolicy: "invitation",
      signupDomains: "",
      locale: "en",
      timeZone: "UTC",
      twoFactorPolicy: "optional",
      auditRetentionDays: "365",
      oidcEnabled: "on",
      oidcName: "Corp Login",
      oidcIssuer: "http://login.example.com",
      oidcClientId: provider.clientId,
      oidcClientSecret: "",
      oidcEmailClaim: "email",
      oidcCreateUsers: "on",
      oidcDomains: "corp.example",
    };
    const wrong = await web.post("/admin/settings", form);
    assert.equal(wrong.status, 400);
    assert.match(textOfId(wrong.html, "settings-error") ?? "", /oidcIssuer must be an https URL/);
    await web.get("/admin/settings");
    const typedSecret = "a-new-secret-typed-in-a-form-that-fails";
    const failed = await web.post("/admin/settings", {
      ...form,
      oidcIssuer: provider.issuer,
      oidcEmailClaim: "",
      oidcClientSecret: typedSecret,
    });
    assert.equal(failed.status, 400);
    assert.ok(!failed.html.includes(typedSecret), "a typed secret is not shown back either");
    assert.equal(await readClientSecret(settingsContext()), provider.clientSecret, "nothing changed");
    await web.get("/admin/settings");
    const saved = await web.post("/admin/settings", { ...form, oidcIssuer: provider.issuer });
    assert.equal(saved.status, 303);
    assert.equal(
      await readClientSecret(settingsContext()),
      provider.clientSecret,
      "a blank secret keeps the saved one",
    );
  });

  it("makes an account from the claims of a verified address, and signs it in", async () => {
    const { web, answer } = await ssoSignIn("new-person", undefined, "/notifications", "Asia/Tokyo");
    assert.equal(answer.status, 303, answer.html.slice(0, 400));
    assert.equal(answer.location, "/notifications");
    assert.ok(web.cookie("kairan_session"), "a session");
    const made = await server.store.read((tx) => tx.users.findByEmail("new.person@corp.example"));
    assert.equal(made?.name, "Nina New");
    const [created] = await auditRows("user.create");
    assert.equal(created?.parsed["via"], "oidc");
    const [signIn] = await auditRows("sign-in");
    assert.equal(signIn?.parsed["via"], "oidc");
    assert.equal(signIn?.target_id, String(made?.id));
    // The browser's zone (the sign-in link's ?timeZone=, kept in a cookie while away) is the new account's.
    assert.equal((await server.store.read((tx) => tx.users.findPreferences(made!.id)))?.timeZone, "Asia/Tokyo");
    assert.equal(web.cookie("kairan_oidc_zone"), undefined, "dropped on return");
    // The second time, the same account (by its subject), nothing new; another zone is offered, not taken.
    const again = await ssoSignIn("new-person", undefined, "/", "Europe/Berlin");
    assert.equal(again.answer.status, 303);
    assert.equal((await auditRows("user.create")).length, 1);
    assert.equal(decodeURIComponent(again.web.cookie("kairan_zone_offer") ?? ""), "Europe/Berlin");
    assert.equal((await server.store.read((tx) => tx.users.findPreferences(made!.id)))?.timeZone, "Asia/Tokyo");
    const bogus = await ssoSignIn("new-person", undefined, "/", "Mars/Olympus");
    assert.equal(bogus.web.cookie("kairan_zone_offer"), undefined, "no zone: nothing offered");
  });

  it("links an existing account by its verified address, and finds it by subject after the address changed", async () => {
    const kei = await server.factories.user({ name: "Kei", email: "kei@corp.example" });
    const { answer } = await ssoSignIn("existing");
    assert.equal(answer.status, 303, answer.html.slice(0, 400));
    const [signIn] = await auditRows("sign-in");
    assert.equal(signIn?.target_id, String(kei.id));
    assert.equal(signIn?.parsed["linked"], true);
    assert.equal((await server.store.read((tx) => tx.users.findById(kei.id)))?.name, "Kei", "the name is kept");
    provider.accounts.set("existing", { email: "kei.new@corp.example", email_verified: true, name: "Kei" });
    const later = await ssoSignIn("existing");
    assert.equal(later.answer.status, 303);
    const [second] = await auditRows("sign-in");
    assert.equal(second?.target_id, String(kei.id), "the same account, by subject");
    assert.equal(await server.store.read((tx) => tx.users.findByEmail("kei.new@corp.example")), undefined);
  });

  it("refuses an unverified address of an existing account, with a clear page and a refused row", async () => {
    const uma = await server.factories.user({ name: "Uma", email: "uma@corp.example" });
    const { web, answer } = await ssoSignIn("unverified");
    assert.equal(answer.status, 403);
    assert.match(textOfId(answer.html, "oidc-problem") ?? "", /has not verified your e-mail address/);
    await assertValidHtml(answer.html, "refusal page");
    assert.equal(web.cookie("kairan_session"), undefined);
    const [refused] = await auditRows("sign-in.failed");
    assert.equal(refused?.outcome, "refused");
    assert.equal(refused?.target_id, String(uma.id));
    assert.deepEqual(refused?.parsed, { via: "oidc", reason: "unverified" });
  });

  it("refuses an address outside the allowed domains, and makes nothing", async () => {
    const { answer } = await ssoSignIn("outsider");
    assert.equal(answer.status, 403);
    assert.match(textOfId(answer.html, "oidc-problem") ?? "", /not open to addresses of this domain/);
    assert.equal(await server.store.read((tx) => tx.users.findByEmail("olga@elsewhere.example")), undefined);
    const [refused] = await auditRows("sign-in.failed");
    assert.deepEqual(refused?.parsed, { via: "oidc", reason: "domain" });
  });

  it("refuses a person without an account when the site makes none, and a disabled account", async () => {
    await configure({ oidcCreateUsers: "" });
    provider.accounts.set("nobody", { email: "nobody@corp.example", email_verified: true, name: "No Body" });
    const nobody = await ssoSignIn("nobody");
    assert.equal(nobody.answer.status, 403);
    assert.match(nobody.answer.html, /There is no account for this address here/);
    assert.equal(await server.store.read((tx) => tx.users.findByEmail("nobody@corp.example")), undefined);
    const dan = await server.factories.user({ name: "Dan", email: "dan@corp.example" });
    await setUserDisabled(settingsContext(), { userId: dan.id, disabled: true });
    const disabled = await ssoSignIn("disabled");
    assert.equal(disabled.answer.status, 403);
    assert.match(disabled.answer.html, /This account is disabled/);
    const [refused] = await auditRows("sign-in.failed");
    assert.deepEqual(refused?.parsed, { via: "oidc", reason: "disabled" });
  });

  it("refuses a callback in a browser that did not start the sign-in (state bound to the browser)", async () => {
    const starter = new WebClient(server.url);
    const start = await starter.get("/signin/oidc");
    const back = await signInAt(start.location ?? "", "new-person");
    const other = new WebClient(server.url);
    const refusals = (await auditRows("sign-in.failed")).length;
    const answer = await other.get(`${back.pathname}${back.search}`);
    assert.equal(answer.status, 400);
    assert.match(answer.html, /started in another browser/);
    assert.equal(other.cookie("kairan_session"), undefined);
    // It names nobody, and anyone may open the address: no row for it.
    assert.equal((await auditRows("sign-in.failed")).length, refusals);
    // And the flow is single use: the starter cannot replay it either after a failed try.
    const replay = await starter.get(`${back.pathname}${back.search}`);
    assert.equal(replay.status, 303, "the starter's own browser still finishes it");
    const twice = await starter.get(`${back.pathname}${back.search}`);
    assert.equal(twice.status, 400, "but only once");
  });

  it("asks Kairan's second step of an account that has one, unless the provider is trusted for it", async () => {
    const sam = await server.factories.user({ name: "Sam", email: "sam@corp.example" });
    const password = new WebClient(server.url);
    await password.signIn(sam.email);
    await enrolTotp(password, () => server.clock.now());
    const { web, answer } = await ssoSignIn("second", undefined, "/notifications");
    assert.equal(answer.status, 303);
    assert.equal(answer.location, "/signin/second-factor?next=%2Fnotifications");
    assert.equal(web.cookie("kairan_session"), undefined, "no session before the second factor");
    await configure({ oidcTrustSecondFactor: "on" });
    const trusted = await ssoSignIn("second");
    assert.equal(trusted.answer.location, "/");
    assert.ok(trusted.web.cookie("kairan_session"));
    await configure({ oidcTrustSecondFactor: "" });
  });

  it("says single sign-on is unavailable when the provider is down, and the password still works", async () => {
    const pat = await server.factories.user({ name: "Pat", email: "pat@corp.example" });
    await provider.stop();
    const web = new WebClient(server.url, "en");
    const answer = await web.get("/signin/oidc");
    assert.equal(answer.status, 503);
    assert.match(textOfId(answer.html, "oidc-problem") ?? "", /Single sign-on is unavailable at the moment/);
    assert.match(answer.html, /You can still sign in with your e-mail address and password/);
    await assertValidHtml(answer.html, "unavailable page");
    await web.get("/signin");
    const signedIn = await web.post("/signin", { email: pat.email, password: PASSWORD });
    assert.equal(signedIn.status, 303);
    assert.ok(web.cookie("kairan_session"));
  });
});
