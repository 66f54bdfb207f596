// One-click unsubscribe (RFC 8058): every notification message carries a link signed for its
// recipient and its kind of mail; a POST to it turns that kind off without signing in, a GET only
// shows what the POST would do. Nothing is stored per link: the site's key and the expiry bound it.
import { signToken, verifyToken } from "../../auth/signed-token.js";
import { NotFoundError } from "../../domain/errors.js";
import { MAIL_TIMING } from "../../domain/mail-schedule.js";
import { type UnsubscribeScope, scopeClaim, scopeOfClaim, unsubscribed } from "../../domain/mail-settings.js";
import type { Tx } from "../../store/store.js";
import type { MailContext } from "../mail/outbox.js";
import { siteKey } from "../site-key.js";
import type { ServiceContext } from "../context.js";

const PURPOSE = "mail-unsubscribe";

/** The key unsubscribe links are signed with (made on first use, the same in every process). */
export function unsubscribeKey(ctx: ServiceContext): Promise<Buffer> {
  return siteKey(ctx, "mail-unsubscribe");
}

/** The link that turns `scope` off for the user, valid for MAIL_TIMING.unsubscribeTtlMs. */
export function unsubscribeUrl(
  ctx: Pick<MailContext, "baseUrl">,
  key: Buffer,
  userId: number,
  scope: UnsubscribeScope,
  now: number,
): string {
  const token = signToken(key, PURPOSE, [String(userId), scopeClaim(scope)], now + MAIL_TIMING.unsubscribeTtlMs);
  return `${ctx.baseUrl()}/unsubscribe/${token}`;
}

/** What a link turns off, as its pages say it. */
export interface UnsubscribeView {
  readonly scope: UnsubscribeScope;
  /** The group's name for a group's mail; null for the others, or a group that is gone. */
  readonly groupName: string | null;
}

interface Claims {
  readonly userId: number;
  readonly scope: UnsubscribeScope;
}

function invalid(): NotFoundError {
  return new NotFoundError("UNSUBSCRIBE_LINK_INVALID", "This unsubscribe link is not valid, or it has expired.");
}

/** The link's claims if it verifies and names an account that exists. @throws NotFoundError UNSUBSCRIBE_LINK_INVALID */
async function claimsOf(ctx: ServiceContext, tx: Tx, token: string): Promise<Claims> {
  // Read, never made here: before the first message no link exists, and a refusal changes nothing.
  const secret = await tx.siteKeys.find("mail-unsubscribe");
  if (secret === undefined) throw invalid();
  const claims = verifyToken(Buffer.from(secret, "base64url"), PURPOSE, token, ctx.clock.now());
  if (claims === undefined || claims.length !== 2) throw invalid();
  const [user, claim] = claims;
  const scope = scopeOfClaim(claim ?? "");
  if (scope === undefined || !/^[1-9][0-9]{0,14}$/.test(user ?? "")) throw invalid();
  const userId = Number(user);
  if ((await tx.users.findById(userId)) === undefined) throw invalid();
  return { userId, scope };
}

async function viewOf(tx: Tx, claims: Claims): Promise<UnsubscribeView> {
  if (claims.scope.kind !== "group") return { scope: claims.scope, groupName: null };
  const group = await tx.groups.findById(claims.scope.groupId);
  return { scope: claims.scope, groupName: group?.name ?? null };
}

/** What the link would turn off (the confirmation page: a GET changes nothing). @throws NotFoundError UNSUBSCRIBE_LINK_INVALID */
export async function readUnsubscribe(ctx: ServiceContext, token: string): Promise<UnsubscribeView> {
  return ctx.store.read(async (tx) => viewOf(tx, await claimsOf(ctx, tx, token)));
}

/**
 * Turns off what the link names, for the person it was sent to: a group's mail, the digest, or
 * the mail of mentions, assignments and direct messages. Doing it twice changes nothing more.
 * @throws NotFoundError UNSUBSCRIBE_LINK_INVALID
 */
export async function unsubscribe(ctx: ServiceContext, token: string): Promise<UnsubscribeView> {
  return ctx.store.transaction(async (tx) => {
    const claims = await claimsOf(ctx, tx, token);
    const view = await viewOf(tx, claims);
    const at = ctx.clock.now();
    if (claims.scope.kind === "group") {
      // A group that is gone sends nothing anyway (and can take no row).
      if (view.groupName !== null) await tx.mailSettings.setGroupOff(claims.userId, claims.scope.groupId, true, at);
      return view;
    }
    const settings = await tx.mailSettings.find(claims.userId);
    const next = unsubscribed(settings, claims.scope);
    if (next !== settings) await tx.mailSettings.save(claims.userId, next, at);
    return view;
  });
}
