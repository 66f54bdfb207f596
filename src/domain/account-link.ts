// One-time links of accounts sent by mail or printed once: a password reset, an address change's
// confirmation, the first run's setup. Each is a random secret of which only the SHA-256 is stored;
// it works once, until its end. The limits on how often people may ask for mail are here too.
import { NotFoundError, ValidationError } from "./errors.js";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long each kind of link works, and the bounds on the mail people may ask for. */
export const ACCOUNT_MAIL_LIMITS = {
  /** A password reset link: one hour (issue #29). */
  passwordResetMs: HOUR_MS,
  /** An address change's confirmation link: a day, time enough to open another mailbox. */
  addressConfirmMs: 24 * HOUR_MS,
  /** The first run's setup link: a day; every start without accounts prints a new one. */
  setupMs: 24 * HOUR_MS,
  /** The window of every request counter below. */
  requestWindowMs: HOUR_MS,
  /** Password reset requests per typed address per window (answered 429 beyond, for every address alike). */
  resetsPerAddress: 5,
  /** Reset messages per account per window (beyond, the answer stays the same and no mail goes). */
  resetsPerAccount: 3,
  /** Password reset requests per client address per window. */
  resetsPerClient: 20,
  /** Address change requests per account per window. */
  addressChangesPerAccount: 5,
  /** Invitations waiting in one group (until accepted or withdrawn). */
  pendingInvitationsPerGroup: 100,
  /** Invitation messages (new and sent again) per manager per window. */
  invitationsPerManager: 20,
  /** The shortest time between two messages of one invitation. */
  resendIntervalMs: 10 * MINUTE_MS,
} as const;

/** Where a stored link stands at a moment. */
export type LinkState = "live" | "used" | "expired";

/** A link works strictly before its end: valid at 59:59 of an hour's link, refused at 60:00. */
export function linkState(
  link: { readonly expiresAt: number; readonly usedAt: number | null },
  now: number,
): LinkState {
  if (link.usedAt !== null) return "used";
  return now < link.expiresAt ? "live" : "expired";
}

/** The error of a link no stored link matches (mistyped, cut short, or swept after it ended). */
export function linkNotFound(): NotFoundError {
  return new NotFoundError("LINK_NOT_FOUND", "This link is not valid. Check that it was copied whole.");
}

/**
 * Asserts a link may be followed now.
 * @throws ValidationError LINK_USED, LINK_EXPIRED
 */
export function requireLiveLink(
  link: { readonly expiresAt: number; readonly usedAt: number | null },
  now: number,
): void {
  const state = linkState(link, now);
  if (state === "used")
    throw new ValidationError("LINK_USED", "This link has been used already; each link works once.");
  if (state === "expired") throw new ValidationError("LINK_EXPIRED", "This link has expired; ask for a new one.");
}
