// The site's settings that an administrator changes in the browser and that apply without a
// restart: kept in the database (services/settings/), each one falling back to the server's
// options when never set. Pure: the defaults, and the checks of a change.
import { ValidationError } from "./errors.js";
import { hasControlCharacter } from "./text.js";
import { canonicalZone } from "./time-zone.js";

/** Who may make an account: nobody, people invited to a group, anyone, or addresses of listed domains. */
export const SIGNUP_POLICIES = ["closed", "invitation", "open", "domains"] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

/** Who must sign in with a second factor. */
export const TWO_FACTOR_POLICIES = ["optional", "admins", "everyone"] as const;
export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];

export interface SiteSettings {
  /** Shown in page titles and mail. */
  readonly siteName: string;
  readonly signupPolicy: SignupPolicy;
  /** With `domains`: the address domains that may sign up (lower case). */
  readonly signupDomains: readonly string[];
  /** The language of pages and mail for people who chose none. */
  readonly locale: "ja" | "en";
  /** The IANA time zone of pages for people who chose none. */
  readonly timeZone: string;
  readonly twoFactorPolicy: TwoFactorPolicy;
  /** Days the audit log keeps a row. */
  readonly auditRetentionDays: number;
  /** Single sign-on with OpenID Connect (docs/operations.md "Single sign-on"); its client secret is kept apart, sealed. */
  readonly oidcEnabled: boolean;
  /** The provider's name on the sign-in page's button. */
  readonly oidcName: string;
  /** The provider's issuer URL ("" until set). */
  readonly oidcIssuer: string;
  readonly oidcClientId: string;
  /** The claim that holds the person's e-mail address. */
  readonly oidcEmailClaim: string;
  /** Whether a person the provider vouches for but who has no account gets one. */
  readonly oidcCreateUsers: boolean;
  /** The address domains single sign-on accepts (lower case); none: any. */
  readonly oidcDomains: readonly string[];
  /** Whether the provider's sign-in stands for Kairan's second step (the provider asks its own). */
  readonly oidcTrustSecondFactor: boolean;
}

export type SettingName = keyof SiteSettings;

/** What the server's options say, for the settings never changed in the browser. */
export interface SettingDefaults {
  readonly locale: "ja" | "en";
  readonly timeZone: string;
  readonly allowSignup: boolean;
}

export const SITE_NAME_MAX = 100;
export const SIGNUP_DOMAINS_MAX = 50;
export const AUDIT_RETENTION_DAYS_MIN = 1;
export const AUDIT_RETENTION_DAYS_MAX = 3650;
export const OIDC_NAME_MAX = 60;
export const OIDC_ISSUER_MAX = 500;
export const OIDC_CLIENT_ID_MAX = 255;
export const OIDC_CLIENT_SECRET_MAX = 500;
export const OIDC_CLAIM_MAX = 100;

/** The settings of a site that never changed one. */
export function defaultSettings(defaults: SettingDefaults): SiteSettings {
  return {
    siteName: "Kairan",
    // Invitation links have always made accounts; `--allow-signup` opened the sign-up page too.
    signupPolicy: defaults.allowSignup ? "open" : "invitation",
    signupDomains: [],
    locale: defaults.locale,
    timeZone: defaults.timeZone,
    twoFactorPolicy: "optional",
    auditRetentionDays: 365,
    oidcEnabled: false,
    oidcName: "OpenID Connect",
    oidcIssuer: "",
    oidcClientId: "",
    oidcEmailClaim: "email",
    oidcCreateUsers: false,
    oidcDomains: [],
    oidcTrustSecondFactor: false,
  };
}

/**
 * The checked, normalised value of one setting from a form or a command (strings, or a list of
 * strings for the domains).
 * @throws ValidationError SETTING_UNKNOWN or SETTING_INVALID, naming the setting and the rule
 */
export function checkSetting(name: string, raw: unknown): [SettingName, SiteSettings[SettingName]] {
  const fail = (rule: string): never => {
    throw new ValidationError("SETTING_INVALID", `${name} ${rule}.`);
  };
  const text = () => (typeof raw === "string" ? raw.trim() : fail("must be text"));
  switch (name) {
    case "siteName": {
      const value = text();
      if (value.length === 0 || [...value].length > SITE_NAME_MAX) fail(`must be 1 to ${SITE_NAME_MAX} characters`);
      if (hasControlCharacter(value)) fail("must not hold control characters");
      return [name, value];
    }
    case "signupPolicy":
      return [name, oneOf(text(), SIGNUP_POLICIES) ?? fail(`must be one of ${SIGNUP_POLICIES.join(", ")}`)];
    case "twoFactorPolicy":
      return [name, oneOf(text(), TWO_FACTOR_POLICIES) ?? fail(`must be one of ${TWO_FACTOR_POLICIES.join(", ")}`)];
    case "locale":
      return [name, oneOf(text(), ["ja", "en"] as const) ?? fail("must be ja or en")];
    case "timeZone":
      return [name, canonicalZone(text()) ?? fail("must be an IANA time zone such as Asia/Tokyo")];
    case "auditRetentionDays": {
      const value = text();
      const days = /^[0-9]{1,5}$/.test(value) ? Number(value) : NaN;
      if (!(days >= AUDIT_RETENTION_DAYS_MIN && days <= AUDIT_RETENTION_DAYS_MAX))
        fail(`must be a whole number of days from ${AUDIT_RETENTION_DAYS_MIN} to ${AUDIT_RETENTION_DAYS_MAX}`);
      return [name, days];
    }
    case "signupDomains":
    case "oidcDomains":
      return [name, checkDomains(raw, fail)];
    case "oidcEnabled":
    case "oidcCreateUsers":
    case "oidcTrustSecondFactor":
      return [name, checkSwitch(raw) ?? fail("must be on or off")];
    case "oidcName": {
      const value = text();
      if (value.length === 0 || [...value].length > OIDC_NAME_MAX) fail(`must be 1 to ${OIDC_NAME_MAX} characters`);
      if (hasControlCharacter(value)) fail("must not hold control characters");
      return [name, value];
    }
    case "oidcIssuer":
      return [name, checkIssuer(text(), fail)];
    case "oidcClientId":
      return [name, checkToken(text(), OIDC_CLIENT_ID_MAX, true, fail)];
    case "oidcEmailClaim": {
      const value = text();
      if (!/^[A-Za-z0-9_.:/-]+$/.test(value) || value.length > OIDC_CLAIM_MAX)
        fail(`must be a claim name of 1 to ${OIDC_CLAIM_MAX} letters, digits or _ . : / -`);
      return [name, value];
    }
    default:
      throw new ValidationError("SETTING_UNKNOWN", `There is no setting named ${name.slice(0, 40)}.`);
  }
}

/**
 * The checked client secret of single sign-on: printable, 1 to 500 characters. Never echoed in the
 * error, which a page or a log may show.
 * @throws ValidationError SETTING_INVALID
 */
export function checkClientSecret(raw: string): string {
  return checkToken(raw, OIDC_CLIENT_SECRET_MAX, false, (rule) => {
    throw new ValidationError("SETTING_INVALID", `oidcClientSecret ${rule}.`);
  });
}

/**
 * Single sign-on can be on only with an issuer, a client id and a secret.
 * @throws ValidationError OIDC_SETTINGS_INCOMPLETE
 */
export function requireCompleteOidc(settings: SiteSettings, hasSecret: boolean): void {
  if (!settings.oidcEnabled) return;
  const missing = [
    settings.oidcIssuer === "" ? "the issuer URL" : undefined,
    settings.oidcClientId === "" ? "the client id" : undefined,
    hasSecret ? undefined : "the client secret",
  ].filter((part) => part !== undefined);
  if (missing.length > 0)
    throw new ValidationError(
      "OIDC_SETTINGS_INCOMPLETE",
      `Single sign-on cannot be turned on without ${missing.join(", ")}.`,
    );
}

/** Whether `email` may sign up by itself under `settings` (an invitation is checked elsewhere). */
export function mayOpenlySignUp(settings: SiteSettings, email: string): boolean {
  if (settings.signupPolicy === "open") return true;
  if (settings.signupPolicy !== "domains") return false;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return settings.signupDomains.includes(domain);
}

function oneOf<T extends string>(value: string, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A check box's value: on from a form ("on") or a command ("true"); off when absent. */
function checkSwitch(raw: unknown): boolean | undefined {
  if (raw === true || raw === false) return raw;
  if (typeof raw !== "string") return undefined;
  const value = raw.trim().toLowerCase();
  if (["on", "true", "1", "yes"].includes(value)) return true;
  if (["", "off", "false", "0", "no"].includes(value)) return false;
  return undefined;
}

/**
 * An issuer URL: https (http only on this machine's own addresses, for development and tests), with
 * no query, fragment or credentials, since OpenID Connect Discovery appends its path to it.
 * Empty is allowed: single sign-on is off until one is set.
 */
function checkIssuer(value: string, fail: (rule: string) => never): string {
  if (value === "") return value;
  if (value.length > OIDC_ISSUER_MAX) fail(`must be at most ${OIDC_ISSUER_MAX} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail("must be a URL such as https://login.example.com");
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (!(url.protocol === "https:" || (url.protocol === "http:" && loopback)))
    fail("must be an https URL (http only for localhost)");
  if (url.search !== "" || url.hash !== "" || value.includes("#") || url.username !== "" || url.password !== "")
    fail("must not have a query, a fragment or a user name");
  // Kept as typed: the provider's discovery document must name exactly this issuer (a trailing
  // slash included).
  return value;
}

/** A client id or secret: printable ASCII without spaces (what providers issue); empty allowed for the id. */
function checkToken(value: string, max: number, emptyAllowed: boolean, fail: (rule: string) => never): string {
  if (value === "" && emptyAllowed) return value;
  if (value.length === 0 || value.length > max) fail(`must be 1 to ${max} characters`);
  if (!/^[\x21-\x7e]+$/.test(value)) fail("must be printable characters without spaces");
  return value;
}

/** Domains given as a list, or as one text with commas, spaces or lines between them. */
function checkDomains(raw: unknown, fail: (rule: string) => never): string[] {
  const items =
    typeof raw === "string"
      ? raw.split(/[\s,]+/)
      : Array.isArray(raw) && raw.every((item) => typeof item === "string")
        ? (raw as string[])
        : fail("must be a list of domains");
  const domains = [...new Set(items.map((item) => item.trim().toLowerCase().replace(/^@/, "")).filter(Boolean))];
  if (domains.length > SIGNUP_DOMAINS_MAX) fail(`must name at most ${SIGNUP_DOMAINS_MAX} domains`);
  for (const domain of domains) {
    if (domain.length > 253 || !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain))
      fail(`names "${domain.slice(0, 60)}", which is not a domain`);
  }
  return domains;
}
