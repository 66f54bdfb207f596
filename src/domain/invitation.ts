// Invitations by e-mail address: who may take one, and until when. An invitation made in the web
// interface carries a link with a secret (for a person who has no account yet); the secret's hash
// is stored, and the link's secret is compared with it in constant time.
import { timingSafeEqual } from "node:crypto";
import { NotFoundError, ValidationError } from "./errors.js";

/** How long an invitation made in the web interface stays valid. */
export const INVITATION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;

/** The longest e-mail address (RFC 5321's path limit less the angle brackets). */
export const EMAIL_MAX_CHARS = 254;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An e-mail address as invitations and accounts keep it: trimmed, lower case.
 * @throws ValidationError INVALID_EMAIL
 */
export function normalizeEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (email.length > EMAIL_MAX_CHARS || !EMAIL.test(email))
    throw new ValidationError("INVALID_EMAIL", `"${email.slice(0, 40)}" is not an e-mail address.`);
  return email;
}

/** True while an invitation may be taken (an invitation without an end never expires). */
export function invitationLive(expiresAt: number | null, now: number): boolean {
  return expiresAt === null || expiresAt > now;
}

/** The error of a link that names no invitation, a wrong secret or a taken one (the same to the holder). */
export function invitationNotFound(): NotFoundError {
  return new NotFoundError("INVITATION_NOT_FOUND", "This invitation does not exist or has been used or withdrawn.");
}

/**
 * Asserts the secret of a link matches the stored hash (both hex SHA-256), in constant time.
 * @throws NotFoundError INVITATION_NOT_FOUND
 */
export function requireLinkSecret(sentHash: string, storedHash: string | null): void {
  const sent = Buffer.from(sentHash, "hex");
  const stored = Buffer.from(storedHash ?? "", "hex");
  if (stored.length === 0 || sent.length !== stored.length || !timingSafeEqual(sent, stored))
    throw invitationNotFound();
}

/**
 * Asserts the invitation has not expired.
 * @throws ValidationError INVITATION_EXPIRED
 */
export function requireLive(expiresAt: number | null, now: number): void {
  if (!invitationLive(expiresAt, now))
    throw new ValidationError(
      "INVITATION_EXPIRED",
      "This invitation has expired; ask the group's manager for a new one.",
    );
}
