// The one writer of account links (account_tokens): a password reset, an address change's
// confirmation, the first run's setup. A link is a random secret; only its SHA-256 is stored and
// looked up, so a leaked database hands out no working link. Following one marks it used by one
// conditional update, so two requests racing with the same link cannot both take it.
import { generateSecret, hashToken } from "../../auth/token.js";
import { linkNotFound, requireLiveLink } from "../../domain/account-link.js";
import { ValidationError } from "../../domain/errors.js";
import type { AccountTokenPurpose, AccountTokenRow } from "../../store/queries/account-tokens.js";
import type { Tx } from "../../store/store.js";

/** Used and expired links are kept this long after their end, to be told apart from unknown ones. */
const KEPT_AFTER_END_MS = 7 * 24 * 60 * 60 * 1000;

/** A new link: the secret exists only in this answer (and in the message or line that carries it). */
export interface IssuedLink {
  readonly secret: string;
  readonly expiresAt: number;
}

/** Makes a link inside the caller's transaction; long-ended links are swept on the way. */
export async function issueLink(
  tx: Tx,
  link: { purpose: AccountTokenPurpose; userId: number | null; email: string | null; lifetimeMs: number },
  now: number,
): Promise<IssuedLink> {
  await tx.accountTokens.removeExpired(now - KEPT_AFTER_END_MS);
  const secret = generateSecret();
  const expiresAt = now + link.lifetimeMs;
  await tx.accountTokens.insert({
    purpose: link.purpose,
    tokenHash: hashToken(secret),
    userId: link.userId,
    email: link.email,
    createdAt: now,
    expiresAt,
  });
  return { secret, expiresAt };
}

/**
 * The stored link of this purpose whose secret is `secret`, however it stands.
 * @throws NotFoundError LINK_NOT_FOUND
 */
export async function findLink(tx: Tx, purpose: AccountTokenPurpose, secret: string): Promise<AccountTokenRow> {
  // A secret is 32 URL-safe characters; anything else names no link (and is not worth hashing).
  const link = /^[A-Za-z0-9_-]{16,64}$/.test(secret)
    ? await tx.accountTokens.find(purpose, hashToken(secret))
    : undefined;
  if (link === undefined) throw linkNotFound();
  return link;
}

/**
 * The link, if it may be followed now.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED
 */
export async function liveLink(
  tx: Tx,
  purpose: AccountTokenPurpose,
  secret: string,
  now: number,
): Promise<AccountTokenRow> {
  const link = await findLink(tx, purpose, secret);
  requireLiveLink(link, now);
  return link;
}

/**
 * Follows the link: marks it used, inside the transaction of what it does.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED
 */
export async function useLink(
  tx: Tx,
  purpose: AccountTokenPurpose,
  secret: string,
  now: number,
): Promise<AccountTokenRow> {
  const link = await liveLink(tx, purpose, secret, now);
  // Another request took it between the read and now (PostgreSQL runs both at once).
  if (!(await tx.accountTokens.use(link.id, now)))
    throw new ValidationError("LINK_USED", "This link has been used already; each link works once.");
  return link;
}
