import assert from "node:assert/strict";
import { it } from "node:test";
import {
  OIDC_CLAIM_MAX,
  OIDC_CLIENT_ID_MAX,
  OIDC_CLIENT_SECRET_MAX,
  OIDC_ISSUER_MAX,
  OIDC_NAME_MAX,
  SIGNUP_DOMAINS_MAX,
  SITE_NAME_MAX,
  checkClientSecret,
  checkSetting,
  defaultSettings,
  mayOpenlySignUp,
  requireCompleteOidc,
} from "../../src/domain/site-settings.js";

const invalid = (name: string, raw: unknown) => () => checkSetting(name, raw);
const domains = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example.com`);

it("follows the server's options until changed: invitations only unless --allow-signup", () => {
  const closed = defaultSettings({ locale: "en", timeZone: "Europe/Paris", allowSignup: false });
  assert.equal(closed.signupPolicy, "invitation");
  assert.equal(closed.locale, "en");
  assert.equal(closed.timeZone, "Europe/Paris");
  assert.equal(defaultSettings({ locale: "ja", timeZone: "Asia/Tokyo", allowSignup: true }).signupPolicy, "open");
});

it("takes a site name of 1 to 100 characters, trimmed, and refuses 0, 101 and control characters", () => {
  assert.deepEqual(checkSetting("siteName", "  Team  "), ["siteName", "Team"]);
  assert.equal(checkSetting("siteName", "名".repeat(SITE_NAME_MAX))[1], "名".repeat(SITE_NAME_MAX));
  assert.throws(invalid("siteName", "x".repeat(SITE_NAME_MAX + 1)), { code: "SETTING_INVALID", message: /1 to 100/ });
  assert.throws(invalid("siteName", "   "), { code: "SETTING_INVALID" });
  assert.throws(invalid("siteName", "a\r\nBcc: x"), { code: "SETTING_INVALID", message: /control/ });
  assert.throws(invalid("siteName", 5), { code: "SETTING_INVALID", message: /text/ });
});

it("takes the listed policies, languages and IANA zones only", () => {
  assert.equal(checkSetting("signupPolicy", "domains")[1], "domains");
  assert.equal(checkSetting("twoFactorPolicy", "admins")[1], "admins");
  assert.equal(checkSetting("timeZone", "asia/tokyo")[1], "Asia/Tokyo");
  assert.throws(invalid("signupPolicy", "anyone"), { code: "SETTING_INVALID", message: /closed, invitation/ });
  assert.throws(invalid("locale", "fr"), { code: "SETTING_INVALID" });
  assert.throws(invalid("timeZone", "Mars/Base"), { code: "SETTING_INVALID" });
  assert.throws(invalid("colour", "red"), { code: "SETTING_UNKNOWN" });
});

it("keeps the audit log 1 to 3650 days, and refuses 0, 3651 and fractions", () => {
  assert.equal(checkSetting("auditRetentionDays", "1")[1], 1);
  assert.equal(checkSetting("auditRetentionDays", "3650")[1], 3650);
  for (const days of ["0", "3651", "1.5", "", "-3"])
    assert.throws(invalid("auditRetentionDays", days), { code: "SETTING_INVALID" }, days);
});

it("reads up to 50 sign-up domains from a list or a text, lower-cased and without repeats", () => {
  assert.deepEqual(checkSetting("signupDomains", "Example.com, @team.example.org\nexample.com")[1], [
    "example.com",
    "team.example.org",
  ]);
  assert.equal((checkSetting("signupDomains", domains(SIGNUP_DOMAINS_MAX))[1] as string[]).length, 50);
  assert.throws(invalid("signupDomains", domains(SIGNUP_DOMAINS_MAX + 1)), { code: "SETTING_INVALID", message: /50/ });
  assert.throws(invalid("signupDomains", "localhost"), { code: "SETTING_INVALID", message: /localhost/ });
  assert.throws(invalid("signupDomains", [1]), { code: "SETTING_INVALID" });
});

it("lets an address sign up by itself when open, or when its domain is listed", () => {
  const base = defaultSettings({ locale: "ja", timeZone: "Asia/Tokyo", allowSignup: false });
  assert.equal(mayOpenlySignUp(base, "a@example.com"), false);
  assert.equal(mayOpenlySignUp({ ...base, signupPolicy: "open" }, "a@example.com"), true);
  const listed = { ...base, signupPolicy: "domains" as const, signupDomains: ["example.com"] };
  assert.equal(mayOpenlySignUp(listed, "a@Example.COM"), true);
  assert.equal(mayOpenlySignUp(listed, "a@evil-example.com"), false);
  assert.equal(mayOpenlySignUp(listed, "a@sub.example.com"), false);
});

it("reads single sign-on's switches from a check box or a command, and refuses anything else", () => {
  for (const name of ["oidcEnabled", "oidcCreateUsers", "oidcTrustSecondFactor"]) {
    assert.equal(checkSetting(name, "on")[1], true);
    assert.equal(checkSetting(name, "true")[1], true);
    assert.equal(checkSetting(name, "")[1], false, "an unticked box sends nothing");
    assert.equal(checkSetting(name, false)[1], false);
    assert.throws(invalid(name, "maybe"), { code: "SETTING_INVALID", message: /on or off/ });
  }
  const defaults = defaultSettings({ locale: "en", timeZone: "UTC", allowSignup: false });
  assert.equal(defaults.oidcEnabled, false);
  assert.equal(defaults.oidcEmailClaim, "email");
  assert.equal(defaults.oidcTrustSecondFactor, false);
});

it("takes an https issuer of at most 500 characters (http only on localhost), kept as typed", () => {
  assert.equal(checkSetting("oidcIssuer", " https://login.example.com/ ")[1], "https://login.example.com/");
  assert.equal(checkSetting("oidcIssuer", "http://127.0.0.1:4000")[1], "http://127.0.0.1:4000");
  assert.equal(checkSetting("oidcIssuer", "http://localhost:4000/realms/x")[1], "http://localhost:4000/realms/x");
  assert.equal(checkSetting("oidcIssuer", "")[1], "", "empty until set");
  const at = (n: number) => `https://login.example.com/${"a".repeat(n - "https://login.example.com/".length)}`;
  assert.equal(checkSetting("oidcIssuer", at(OIDC_ISSUER_MAX))[1], at(OIDC_ISSUER_MAX));
  assert.throws(invalid("oidcIssuer", at(OIDC_ISSUER_MAX + 1)), { code: "SETTING_INVALID", message: /500/ });
  assert.throws(invalid("oidcIssuer", "http://login.example.com"), { message: /https/ });
  assert.throws(invalid("oidcIssuer", "login.example.com"), { message: /URL/ });
  assert.throws(invalid("oidcIssuer", "https://login.example.com/?x=1"), { message: /query/ });
  assert.throws(invalid("oidcIssuer", "https://login.example.com/#x"), { message: /fragment/ });
  assert.throws(invalid("oidcIssuer", "https://u:p@login.example.com"), { message: /user name/ });
  assert.throws(invalid("oidcIssuer", "javascript:alert(1)"), { code: "SETTING_INVALID" });
});

it("takes a client id of up to 255 printable characters, a name of 1 to 60, and a claim name", () => {
  assert.equal(checkSetting("oidcClientId", "x".repeat(OIDC_CLIENT_ID_MAX))[1], "x".repeat(OIDC_CLIENT_ID_MAX));
  assert.throws(invalid("oidcClientId", "x".repeat(OIDC_CLIENT_ID_MAX + 1)), { message: /1 to 255/ });
  assert.throws(invalid("oidcClientId", "with space"), { message: /printable/ });
  assert.equal(checkSetting("oidcName", "名".repeat(OIDC_NAME_MAX))[1], "名".repeat(OIDC_NAME_MAX));
  assert.throws(invalid("oidcName", "x".repeat(OIDC_NAME_MAX + 1)), { message: /1 to 60/ });
  assert.throws(invalid("oidcName", " "), { message: /1 to 60/ });
  assert.throws(invalid("oidcName", "a\nb"), { message: /control/ });
  assert.equal(checkSetting("oidcEmailClaim", "upn")[1], "upn");
  assert.equal(checkSetting("oidcEmailClaim", "x".repeat(OIDC_CLAIM_MAX))[1], "x".repeat(OIDC_CLAIM_MAX));
  assert.throws(invalid("oidcEmailClaim", "x".repeat(OIDC_CLAIM_MAX + 1)), { code: "SETTING_INVALID" });
  assert.throws(invalid("oidcEmailClaim", ""), { code: "SETTING_INVALID" });
  assert.throws(invalid("oidcEmailClaim", "e mail"), { code: "SETTING_INVALID" });
  assert.deepEqual(checkSetting("oidcDomains", "Corp.example\n")[1], ["corp.example"]);
  assert.throws(invalid("oidcDomains", domains(SIGNUP_DOMAINS_MAX + 1)), { message: /at most 50/ });
});

it("takes a client secret of 1 to 500 printable characters, never echoing it", () => {
  assert.equal(checkClientSecret("s".repeat(OIDC_CLIENT_SECRET_MAX)), "s".repeat(OIDC_CLIENT_SECRET_MAX));
  assert.throws(() => checkClientSecret("s".repeat(OIDC_CLIENT_SECRET_MAX + 1)), { message: /1 to 500/ });
  assert.throws(
    () => checkClientSecret("top secret"),
    (error: Error) => !error.message.includes("top secret"),
  );
});

it("turns single sign-on on only with an issuer, a client id and a secret", () => {
  const base = { ...defaultSettings({ locale: "en", timeZone: "UTC", allowSignup: false }), oidcEnabled: true };
  assert.throws(() => requireCompleteOidc(base, false), {
    code: "OIDC_SETTINGS_INCOMPLETE",
    message: /the issuer URL, the client id, the client secret/,
  });
  const complete = { ...base, oidcIssuer: "https://login.example.com", oidcClientId: "kairan" };
  assert.throws(() => requireCompleteOidc(complete, false), { message: /without the client secret\.$/ });
  requireCompleteOidc(complete, true);
  requireCompleteOidc({ ...base, oidcEnabled: false }, false);
});
