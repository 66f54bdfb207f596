// Accounts people make themselves (the sign-up page, an invitation link), when the operator
// allows it. Operators' accounts (`kairan user add`) keep their own, looser rules.
import { ForbiddenError, ValidationError } from "./errors.js";
import { normalizeEmail } from "./invitation.js";
import { LIMITS } from "./limits.js";
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
