// Reply addresses: `reply+TOKEN@<mail domain>`, the token signed with the site's "mail-reply" key
// and bound to one recipient and one item (auth/reply-token.ts). The notification mail puts one in
// Reply-To; the inbound listener reads it back here, before anything else about the message.
import { REPLY_PREFIX, signReplyToken, verifyReplyToken } from "../../auth/reply-token.js";
import type { MailConfig } from "../../config/mail.js";
import { ForbiddenError, NotFoundError } from "../../domain/errors.js";
import { type ReplyClaims, type ReplyItem, replyExpiry } from "../../domain/reply.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { siteKey } from "../site-key.js";

export type { ReplyItem } from "../../domain/reply.js";

/** What reading or making a reply address needs: the services' context and the mail settings. */
export interface ReplyAddressContext extends ServiceContext {
  readonly config: { readonly mail: Pick<MailConfig, "domain" | "inboundPort"> };
}

/**
 * The Reply-To address for a message to `recipientUserId` about `item`: a reply sent to it is
 * posted as that person's comment on the item (or message in the chat room), for 90 days. Inside
 * a transaction pass its `tx`. Undefined when this server receives no mail (no
 * --smtp-inbound-port): then a message carries no reply address at all.
 */
export async function replyAddressFor(
  ctx: ReplyAddressContext,
  tx: Tx | undefined,
  recipientUserId: number,
  item: ReplyItem,
): Promise<string | undefined> {
  if (ctx.config.mail.inboundPort === undefined) return undefined;
  const key = await siteKey(ctx, "mail-reply", tx);
  const token = signReplyToken(key, { userId: recipientUserId, item, expiresAt: replyExpiry(ctx.clock.now()) });
  return `${REPLY_PREFIX}${token}@${ctx.config.mail.domain}`;
}

/**
 * The claims of a reply address (`reply+TOKEN@DOMAIN`, any case), checked: signed by this site
 * and not expired. Nothing else about the person or the item is checked here.
 * @throws NotFoundError REPLY_ADDRESS_UNKNOWN (not a reply address of this domain: relaying is refused)
 * @throws ForbiddenError REPLY_ADDRESS_INVALID, REPLY_ADDRESS_EXPIRED
 */
export async function readReplyAddress(ctx: ReplyAddressContext, address: string): Promise<ReplyClaims> {
  const at = address.lastIndexOf("@");
  const local = address.slice(0, Math.max(at, 0)).toLowerCase();
  const domain = address.slice(at + 1).toLowerCase();
  if (at < 0 || domain !== ctx.config.mail.domain.toLowerCase() || !local.startsWith(REPLY_PREFIX))
    throw new NotFoundError("REPLY_ADDRESS_UNKNOWN", "This server takes only replies to its notifications.");
  const claims = verifyReplyToken(await siteKey(ctx, "mail-reply"), local.slice(REPLY_PREFIX.length), ctx.clock.now());
  if (claims === "invalid") throw new ForbiddenError("REPLY_ADDRESS_INVALID", "The reply address is not valid.");
  if (claims === "expired") throw new ForbiddenError("REPLY_ADDRESS_EXPIRED", "The reply address has expired.");
  return claims;
}
