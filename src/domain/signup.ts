// Accounts people make themselves (the sign-up page, an invitation link), when the operator
// allows it. Operators' accounts (`kairan user add`) keep their own, looser rules.
import { ForbiddenError, ValidationError } from "./errors.js";
import { normalizeEmail } from "./invitation.js";
import { LIMITS } from "./limits.js";
import { type SiteSettings, mayOpenlySignUp } from "./site-settings.js";
import { characterCount, checkMaxChars } from "./text.js";

// A self-made account's name and password follow the account page's rules (LIMITS): a password
// long enough to resist guessing, short enough to hash at once (scrypt reads all of it).
const PASSWORD_MIN_CHARS = LIMITS.passwordMinChars;
const PASSWORD_MAX_CHARS = LIMITS.passwordMaxChars;
const USER_NAME_MAX_CHARS = LIMITS.userNameMaxChars;

/** What a person types to make an account. */
export interface AccountDraft {
  readonly name: string;
  readonly email: string;
  readonly password: string;
}

/**
 * Checks a new account; returns it with the name trimmed and the address normalised.
 * @throws ValidationError INVALID_EMAIL, and as checkNameAndPassword
 */
export function checkAccountDraft(draft: AccountDraft): AccountDraft {
  return { ...checkNameAndPassword(draft), email: normalizeEmail(draft.email) };
}

/**
 * Checks the name and password of a new account (an invitation's link fixes the address).
 * @throws ValidationError USER_NAME_REQUIRED, USER_NAME_TOO_LONG, PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG
 */
export function checkNameAndPassword(draft: Omit<AccountDraft, "email">): Omit<AccountDraft, "email"> {
  const name = draft.name.trim();
  if (name === "") throw new ValidationError("USER_NAME_REQUIRED", "The user's name is missing or empty.");
  checkMaxChars(name, USER_NAME_MAX_CHARS, "USER_NAME_TOO_LONG", "The name");
  if (characterCount(draft.password) < PASSWORD_MIN_CHARS)
    throw new ValidationError(
      "PASSWORD_TOO_SHORT",
      `The password must have at least ${PASSWORD_MIN_CHARS} characters.`,
    );
  checkMaxChars(draft.password, PASSWORD_MAX_CHARS, "PASSWORD_TOO_LONG", "The password");
  return { name, password: draft.password };
}

/**
 * Asserts the operator lets people make their own accounts (`--allow-signup`).
 * @throws ForbiddenError SIGNUP_CLOSED
 */
export function requireSignupOpen(allowed: boolean): void {
  if (!allowed)
    throw new ForbiddenError(
      "SIGNUP_CLOSED",
      "This server does not let people make their own accounts; ask its operator.",
    );
}

/** Whether the sign-up page is open at all under `settings` (to anyone, or to listed domains). */
export function signupPageOpen(settings: SiteSettings): boolean {
  return settings.signupPolicy === "open" || settings.signupPolicy === "domains";
}

/**
 * Asserts `email` may make its own account under the site's sign-up policy: the sign-up page is
 * open, and with `domains` the address's domain is listed (exactly: a subdomain is another domain).
 * @throws ForbiddenError SIGNUP_CLOSED; ValidationError SIGNUP_DOMAIN_REFUSED
 */
export function requireMayOpenlySignUp(settings: SiteSettings, email: string): void {
  if (!signupPageOpen(settings)) requireSignupOpen(false);
  if (!mayOpenlySignUp(settings, email))
    throw new ValidationError(
      "SIGNUP_DOMAIN_REFUSED",
      `Accounts can be made here only with an address of ${settings.signupDomains.join(", ").slice(0, 200)}.`,
    );
}

/**
 * Asserts an invitation's link may make a new account: any policy but `closed` (the invitation is
 * the permission; with `closed`, only people who have an account already may join).
 * @throws ForbiddenError SIGNUP_CLOSED
 */
export function requireInvitationMayCreate(settings: SiteSettings): void {
  if (settings.signupPolicy === "closed")
    throw new ForbiddenError(
      "SIGNUP_CLOSED",
      "This server makes no new accounts, not even for invitations; ask its operator.",
    );
}
