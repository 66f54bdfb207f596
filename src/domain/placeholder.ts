// Imported placeholder accounts (issue #32): an import makes one for each person of the original
// service's files who has no account here (disabled, without a password). A group's manager hands
// one over to its person by an invitation to their real address; its recipient chooses a name and
// password on the link's page, and the placeholder becomes their ordinary account, keeping
// everything imported under it. Merging a placeholder into an account that exists is not offered.
import { ValidationError } from "./errors.js";

/** The made-up addresses an import gives people whose member list had none. */
export const PLACEHOLDER_DOMAIN = "placeholder.invalid";

/** A placeholder's address when it is a real one to offer the invite form; "" for a made-up one. */
export function realAddressOf(placeholderEmail: string): string {
  return placeholderEmail.endsWith(`@${PLACEHOLDER_DOMAIN}`) ? "" : placeholderEmail;
}

/** The member's account is not an unclaimed placeholder (an ordinary account, or one claimed already). */
export function notAPlaceholder(): ValidationError {
  return new ValidationError(
    "NOT_A_PLACEHOLDER",
    "This member's account was not imported as a placeholder, or has been claimed already.",
  );
}

/** The recipient's address has an account other than the placeholder: the two cannot be merged. */
export function claimAddressTaken(email: string): ValidationError {
  return new ValidationError(
    "CLAIM_ADDRESS_TAKEN",
    `${email.slice(0, 40)} has an account already; an imported person's history cannot be merged into an existing account.`,
  );
}

/** The link's page was opened while signed in to an account: taking over a placeholder makes no merge. */
export function claimSignedIn(): ValidationError {
  return new ValidationError(
    "CLAIM_SIGNED_IN",
    "You are signed in to another account, and an imported account cannot be merged into it; sign out to take it over as an account of its own.",
  );
}
