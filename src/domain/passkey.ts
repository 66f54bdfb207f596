// Passkeys' rules, pure: a passkey's name, how many an account keeps, how long a challenge lives,
// and the answers a ceremony may give. The WebAuthn checks themselves are in services/two-factor/.
import { ValidationError } from "./errors.js";
import { checkNameCharacters } from "./text.js";

/** A challenge is answered within this time or not at all (the browser's own prompt waits less). */
export const PASSKEY_CHALLENGE_MS = 5 * 60 * 1000;
/** What the browser is told to wait for the authenticator. */
export const PASSKEY_PROMPT_MS = 2 * 60 * 1000;
/** Characters of a passkey's name ("Laptop", "Phone"). */
export const PASSKEY_NAME_MAX = 60;
/** Passkeys one account keeps: far more devices than a person has, few enough for one page. */
export const PASSKEYS_MAX = 20;
/** Characters of a browser's answer (JSON) the forms accept: real ones are a few hundred to 2,000. */
export const PASSKEY_RESPONSE_MAX = 16_000;

/** Where a passkey answers: adding one, the sign-in itself, or the second step after a password. */
export type PasskeyCeremony = "register" | "sign-in" | "second-factor";

/**
 * A passkey's name as typed: trimmed, 1 to PASSKEY_NAME_MAX characters, no control characters.
 * @throws ValidationError PASSKEY_NAME_INVALID
 */
export function asPasskeyName(typed: string): string {
  const name = typed.trim();
  if (name === "" || [...name].length > PASSKEY_NAME_MAX)
    throw new ValidationError(
      "PASSKEY_NAME_INVALID",
      `Name the passkey (1 to ${PASSKEY_NAME_MAX} characters), for example after the device it is on.`,
    );
  checkNameCharacters(name, "PASSKEY_NAME_INVALID", "A passkey's name");
  return name;
}

/** The refusal of an answer that does not prove a passkey of the right account: nothing changed. */
export function passkeyRejected(): ValidationError {
  return new ValidationError("PASSKEY_REJECTED", "The passkey was not accepted: nothing changed. Try again.");
}

/** The refusal of an answer to a challenge that expired, was answered already or belongs to another page. */
export function passkeyChallengeInvalid(): ValidationError {
  return new ValidationError(
    "PASSKEY_CHALLENGE_INVALID",
    "This passkey request expired or was used already: nothing changed. Reload the page and try again.",
  );
}
