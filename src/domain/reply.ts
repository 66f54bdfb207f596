// Replies by mail: what a reply address names. A notification about an item carries an address
// bound to its recipient and the item; a reply to it becomes a comment (or a chat message) by
// that recipient (services/mail-reply/, docs/operations.md "Replies by mail").
import { ForbiddenError, ValidationError } from "./errors.js";
import type { ContentRef } from "./item-id.js";
import { MAIL_REPLY_LIMITS } from "./limits.js";

/** What a reply is posted to: a topic, task, file or event (as a comment), or a chat room. */
export type ReplyItem = ContentRef | { readonly kind: "CHAT"; readonly roomId: number };

/** What a reply address says: who may reply, to what, and until when (epoch ms, exclusive). */
export interface ReplyClaims {
  readonly userId: number;
  readonly item: ReplyItem;
  readonly expiresAt: number;
}

const HOUR_MS = 3_600_000;

/**
 * When an address made at `now` stops working: the token lifetime later, rounded up to a whole
 * hour (the token counts hours, so the same address is made all hour long).
 */
export function replyExpiry(now: number): number {
  return Math.ceil((now + MAIL_REPLY_LIMITS.tokenLifetimeDays * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
}

/**
 * A reply's sender must be the person its address was sent to: its From header names exactly one
 * address, theirs (compared without regard to case, as mail systems treat them). A notification
 * forwarded to someone else, or a reply address copied into another message, then posts nothing.
 * @throws ForbiddenError REPLY_SENDER_MISMATCH
 */
export function checkReplySender(from: readonly string[], email: string): void {
  const [only, ...more] = from;
  if (only === undefined || more.length > 0 || only.toLowerCase() !== email.toLowerCase())
    throw new ForbiddenError(
      "REPLY_SENDER_MISMATCH",
      "The reply does not come from the address the notification was sent to.",
    );
}

/**
 * A reply with nothing of its own (no text once the quote and signature are gone, no file) posts nothing.
 * @throws ValidationError REPLY_EMPTY
 */
export function checkReplyNotEmpty(text: string, fileCount: number): void {
  if (text.trim() === "" && fileCount === 0)
    throw new ValidationError("REPLY_EMPTY", "The reply is empty once the quoted message and signature are removed.");
}
