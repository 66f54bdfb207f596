// Single sign-on with OpenID Connect: what a provider's answer means for Kairan, as pure rules.
// The provider proves who the person is (issuer + subject); Kairan decides which account that is
// and whether it may sign in. See docs/operations.md "Single sign-on".
import { normalizeEmail } from "./invitation.js";
import { LIMITS } from "./limits.js";
import type { SiteSettings } from "./site-settings.js";
import { hasControlCharacter, replaceControlCharacters } from "./text.js";

/** Why a single sign-on was refused (the audit row's `reason`, and the page's text). */
export const OIDC_REFUSALS = [
  "domain",
  "unverified",
  "no-account",
  "disabled",
  "no-email",
  "denied",
  "invalid",
  "expired",
] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

/** A sign-in under way lives as long as someone may take to sign in at their provider. */
export const OIDC_FLOW_MS = 10 * 60 * 1000;

/** What the provider's claims say of the person, as Kairan reads them. */
export interface OidcIdentity {
  readonly issuer: string;
  readonly subject: string;
  /** Normalised, or undefined when the claim is missing or not an address. */
  readonly email: string | undefined;
  /** The provider says it checked the address (`email_verified` is exactly true). */
  readonly emailVerified: boolean;
  readonly name: string;
}

/** The account the identity may use, or why not. */
export type OidcDecision =
  | { readonly kind: "linked"; readonly userId: number }
  | { readonly kind: "link"; readonly userId: number }
  | { readonly kind: "create" }
  | { readonly kind: "refuse"; readonly reason: OidcRefusal; readonly userId?: number };

/** Reads the identity from the ID token's claims (with the user info's, when fetched). */
export function identityOf(
  claims: Readonly<Record<string, unknown>>,
  emailClaim: string,
  issuer: string,
  subject: string,
): OidcIdentity {
  const raw = claims[emailClaim];
  let email: string | undefined;
  try {
    email = typeof raw === "string" && !hasControlCharacter(raw) ? normalizeEmail(raw) : undefined;
  } catch {
    email = undefined;
  }
  return { issuer, subject, email, emailVerified: claims["email_verified"] === true, name: nameOf(claims, email) };
}

/**
 * The account of a provider's person: the one linked to its subject; otherwise the account of its
 * address when the provider verified that address (an unverified one could be anybody's); otherwise
 * a new account when the site makes them (a verified address again). The site's domains apply
 * to every sign-in, linked or not.
 */
export function decideOidc(
  settings: Pick<SiteSettings, "oidcDomains" | "oidcCreateUsers">,
  identity: OidcIdentity,
  found: {
    readonly linkedUserId: number | undefined;
    readonly userIdByEmail: number | undefined;
  },
): OidcDecision {
  if (identity.email === undefined && found.linkedUserId === undefined) return { kind: "refuse", reason: "no-email" };
  if (settings.oidcDomains.length > 0) {
    const domain = identity.email?.slice(identity.email.lastIndexOf("@") + 1);
    if (domain === undefined || !settings.oidcDomains.includes(domain)) return { kind: "refuse", reason: "domain" };
  }
  if (found.linkedUserId !== undefined) return { kind: "linked", userId: found.linkedUserId };
  if (found.userIdByEmail !== undefined)
    return identity.emailVerified
      ? { kind: "link", userId: found.userIdByEmail }
      : { kind: "refuse", reason: "unverified", userId: found.userIdByEmail };
  if (!settings.oidcCreateUsers) return { kind: "refuse", reason: "no-account" };
  return identity.emailVerified ? { kind: "create" } : { kind: "refuse", reason: "unverified" };
}

/** A new account's name: the `name` claim, else given and family names, else the address's local part. */
function nameOf(claims: Readonly<Record<string, unknown>>, email: string | undefined): string {
  const text = (key: string) => {
    const value = claims[key];
    return typeof value === "string" ? replaceControlCharacters(value).trim() : "";
  };
  const joined = [text("given_name"), text("family_name")].filter(Boolean).join(" ");
  const name = text("name") || joined || email?.slice(0, email.indexOf("@")) || "";
  return [...name].slice(0, LIMITS.userNameMaxChars).join("") || "?";
}
