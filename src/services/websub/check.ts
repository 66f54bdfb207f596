// Which subscribers' feeds changed: for each subscription, its caller is checked again (token
// live, account enabled, lease not over), and its feed rendered as that caller sees it when their
// view version moved. A feed the caller may no longer read ends the subscription; a feed whose
// bytes differ from the last push is queued for distribution (in place of an older one not yet sent).
import { bearerActor } from "../../auth/authenticate.js";
import { contentHash, topicTarget } from "../../domain/websub.js";
import type { WebSubSubscriptionRow } from "../../store/queries/websub.js";
import { type WebSubContext, accessEnded, isFeed } from "./context.js";

/** Why a subscription ended, for the log. */
export type EndReason = "lease" | "credential" | "access";

/** Looks at every subscription; returns those it ended, and those it could not look at (tried next pass). */
export async function checkSubscriptions(
  ctx: WebSubContext,
  stopping: () => boolean,
): Promise<{
  readonly ended: readonly { id: number; reason: EndReason }[];
  readonly failed: readonly { id: number; error: unknown }[];
}> {
  const subscriptions = await ctx.store.read((tx) => tx.websub.all());
  const ended: { id: number; reason: EndReason }[] = [];
  const failed: { id: number; error: unknown }[] = [];
  for (const subscription of subscriptions) {
    if (stopping()) break;
    let reason: EndReason | undefined;
    try {
      reason = await checkOne(ctx, subscription);
    } catch (error) {
      // One subscription's trouble (a render that failed) never holds up the others.
      failed.push({ id: subscription.id, error });
      continue;
    }
    if (reason === undefined) continue;
    await ctx.store.transaction((tx) => tx.websub.remove(subscription.user_id, subscription.key_hash));
    ended.push({ id: subscription.id, reason });
  }
  return { ended, failed };
}

/** Queues what changed for one subscription; the reason it must end, if it must. */
async function checkOne(ctx: WebSubContext, subscription: WebSubSubscriptionRow): Promise<EndReason | undefined> {
  if (subscription.expires_at <= ctx.clock.now()) return "lease";
  const grant = await ctx.store.read((tx) => tx.tokens.findLiveById(subscription.token_id));
  if (grant === undefined || grant.user.id !== subscription.user_id) return "credential";
  // Read before the render: a change committed in between is rendered again next time, never missed.
  const version = await ctx.store.viewVersion(subscription.user_id);
  const seen = `${version.memberVersion}/${version.groupVersions}`;
  if (seen === subscription.seen_version) return undefined;
  const rendered = await ctx.render(topicTarget(subscription.topic, ctx.baseUrl()), bearerActor(grant));
  if (accessEnded(rendered)) return "access";
  if (!isFeed(rendered)) return undefined;
  const hash = contentHash(rendered.body);
  await ctx.store.transaction(async (tx) => {
    if (hash !== subscription.last_hash)
      await tx.websub.replaceDelivery({
        kind: "deliver",
        userId: subscription.user_id,
        tokenId: subscription.token_id,
        keyHash: subscription.key_hash,
        topic: subscription.topic,
        callback: subscription.callback,
        secret: subscription.secret,
        leaseSeconds: subscription.lease_seconds,
        contentHash: hash,
        body: rendered.body,
        at: ctx.clock.now(),
      });
    await tx.websub.setSeen(subscription.id, seen, hash);
  });
  return undefined;
}
