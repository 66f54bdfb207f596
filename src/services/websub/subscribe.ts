// A subscriber's request to the hub (docs/api.md "WebSub"): read, checked against the caller's
// own view of the topic, and queued for the verification of intent, which the hub sends after
// commit. The answer (202) never waits for the callback.
import { seal } from "../../auth/secret-box.js";
import { type Actor, requireAccess } from "../../domain/access.js";
import {
  AuthenticationError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from "../../domain/errors.js";
import {
  WEBSUB_LIMITS,
  contentHash,
  readWebSubRequest,
  subscriptionKey,
  websubSecretOwner,
} from "../../domain/websub.js";
import { siteKey } from "../site-key.js";
import { type WebSubContext, accessEnded, isFeed } from "./context.js";
import { websubQueued } from "./wake.js";

/**
 * Queues the verification of a subscribe or unsubscribe request made by `actor`.
 * @throws ValidationError (domain/websub.ts readWebSubRequest), WEBSUB_TOPIC_NOT_A_FEED;
 *   ForbiddenError WEBSUB_TOPIC_FORBIDDEN, ACCESS_LEVEL_INSUFFICIENT; NotFoundError
 *   WEBSUB_NOT_SUBSCRIBED; ConflictError WEBSUB_TOO_MANY; AuthenticationError TOKEN_REQUIRED
 */
export async function requestSubscription(ctx: WebSubContext, actor: Actor, form: URLSearchParams): Promise<void> {
  requireAccess(actor, "read");
  const tokenId = actor.tokenId;
  if (tokenId === undefined)
    throw new AuthenticationError("TOKEN_REQUIRED", "A WebSub subscription is made with a token: sign the request.");
  const request = readWebSubRequest(form, ctx.baseUrl());
  const keyHash = subscriptionKey(request.topic, request.callback);
  const job = {
    userId: actor.user.id,
    tokenId,
    keyHash,
    topic: request.topic,
    callback: request.callback,
    leaseSeconds: request.leaseSeconds,
    body: null,
    at: ctx.clock.now(),
  };
  if (request.mode === "unsubscribe") {
    await ctx.store.transaction(async (tx) => {
      if ((await tx.websub.find(actor.user.id, keyHash)) === undefined) throw subscriptionNotFound();
      await tx.websub.enqueue({ ...job, kind: "unsubscribe", secret: null, contentHash: null });
      websubQueued.count += 1;
    });
    return;
  }
  const hash = await topicHash(ctx, actor, request.topicTarget);
  await ctx.store.transaction(async (tx) => {
    const existing = await tx.websub.find(actor.user.id, keyHash);
    if (existing === undefined && (await tx.websub.countOfUser(actor.user.id)) >= WEBSUB_LIMITS.perUserMax)
      throw new ConflictError(
        "WEBSUB_TOO_MANY",
        `You hold ${WEBSUB_LIMITS.perUserMax} WebSub subscriptions, the most one person may; end one first.`,
      );
    const secret =
      request.secret === undefined
        ? null
        : seal(await siteKey(ctx, "websub-secret", tx), websubSecretOwner(actor.user.id, keyHash), request.secret);
    await tx.websub.enqueue({ ...job, kind: "subscribe", secret, contentHash: hash });
    websubQueued.count += 1;
  });
}

/** The hash of the topic as the caller sees it now: the baseline a first push is compared with. */
async function topicHash(ctx: WebSubContext, actor: Actor, target: string): Promise<string> {
  const rendered = await ctx.render(target, actor);
  if (accessEnded(rendered) && rendered.status !== 404)
    throw new ForbiddenError("WEBSUB_TOPIC_FORBIDDEN", "You may not read this feed, so you may not subscribe to it.");
  if (!isFeed(rendered))
    throw new ValidationError("WEBSUB_TOPIC_NOT_A_FEED", "hub.topic is not a feed of this site that you can read.");
  return contentHash(rendered.body);
}

function subscriptionNotFound(): NotFoundError {
  return new NotFoundError("WEBSUB_NOT_SUBSCRIBED", "You hold no subscription of this callback to this topic.");
}
