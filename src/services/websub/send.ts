// Sends one job of the hub through the guarded client (the SSRF rules of webhooks): a verification
// of intent (GET the callback with a challenge it must echo), or a distribution (POST the feed,
// signed with X-Hub-Signature when the subscriber gave a secret). A distribution is sent only
// while its subscription still holds and its caller's token is live.
import { randomBytes } from "node:crypto";
import { open } from "../../auth/secret-box.js";
import { nextRetryAt } from "../../domain/webhook.js";
import { WEBSUB_LIMITS, hubSignature, websubSecretOwner } from "../../domain/websub.js";
import type { WebSubJobRow } from "../../store/queries/websub.js";
import { oneLine } from "../outbound/drain-loop.js";
import { guardedRequest } from "../outbound/guarded-request.js";
import { siteKey } from "../site-key.js";
import { type WebSubContext, hubUrl } from "./context.js";

/** What happened to a job, for the log (never a secret nor a body). */
export type JobOutcome =
  | { readonly kind: "verified" | "denied" | "sent" | "dropped" }
  | { readonly kind: "retry" | "failed"; readonly error: string };

/** Sends `job` and records its outcome. */
export async function sendJob(ctx: WebSubContext, job: WebSubJobRow, timeoutMs: number): Promise<JobOutcome> {
  return job.kind === "deliver" ? deliver(ctx, job, timeoutMs) : verify(ctx, job, timeoutMs);
}

/** The verification of intent: the callback must answer 2xx with the challenge as its whole body. */
async function verify(ctx: WebSubContext, job: WebSubJobRow, timeoutMs: number): Promise<JobOutcome> {
  const challenge = randomBytes(24).toString("base64url");
  const url = new URL(job.callback);
  url.searchParams.append("hub.mode", job.kind);
  url.searchParams.append("hub.topic", job.topic);
  url.searchParams.append("hub.challenge", challenge);
  if (job.kind === "subscribe") url.searchParams.append("hub.lease_seconds", String(job.lease_seconds));
  let confirmed = false;
  let error = "";
  try {
    const answer = await guardedRequest({
      url: url.href,
      method: "GET",
      headers: { "user-agent": "Kairan-WebSub" },
      timeoutMs,
      excerptChars: WEBSUB_LIMITS.answerChars,
      allowPrivate: ctx.config.webhookAllowPrivate,
    });
    confirmed = answer.status >= 200 && answer.status < 300 && answer.excerpt === challenge;
    if (!confirmed) error = `the callback answered ${answer.status} without the challenge`;
  } catch (thrown) {
    error = oneLine(thrown);
  }
  const now = ctx.clock.now();
  await ctx.store.transaction(async (tx) => {
    // A token revoked while the callback was asked makes no subscription.
    if (confirmed && job.kind === "subscribe" && (await tx.tokens.findLiveById(job.token_id)) !== undefined)
      await tx.websub.activate(job, now + job.lease_seconds * 1000);
    if (confirmed && job.kind === "unsubscribe") await tx.websub.remove(job.user_id, job.key_hash);
    await tx.websub.finish(job.id);
  });
  return confirmed ? { kind: "verified" } : { kind: "failed", error };
}

/** A distribution: the feed as its subscriber sees it, while the subscription holds. */
async function deliver(ctx: WebSubContext, job: WebSubJobRow, timeoutMs: number): Promise<JobOutcome> {
  const body = job.body ?? "";
  const holds = await ctx.store.read(async (tx) => {
    const subscription = await tx.websub.find(job.user_id, job.key_hash);
    if (subscription === undefined || subscription.expires_at <= ctx.clock.now()) return false;
    return (await tx.tokens.findLiveById(subscription.token_id)) !== undefined;
  });
  if (!holds) {
    await ctx.store.transaction((tx) => tx.websub.finish(job.id));
    return { kind: "dropped" };
  }
  const headers: Record<string, string> = {
    "content-type": "application/atom+xml; charset=utf-8",
    "user-agent": "Kairan-WebSub",
    link: `<${hubUrl(ctx.baseUrl())}>; rel="hub", <${job.topic}>; rel="self"`,
  };
  if (job.secret !== null) {
    const key = await siteKey(ctx, "websub-secret");
    const secret = open(key, websubSecretOwner(job.user_id, job.key_hash), job.secret);
    if (secret === undefined) {
      await ctx.store.transaction((tx) => tx.websub.finish(job.id));
      return { kind: "failed", error: "the secret cannot be opened" };
    }
    headers["x-hub-signature"] = hubSignature(secret, body);
  }
  let error: string;
  try {
    const answer = await guardedRequest({
      url: job.callback,
      method: "POST",
      headers,
      body,
      timeoutMs,
      excerptChars: WEBSUB_LIMITS.answerChars,
      allowPrivate: ctx.config.webhookAllowPrivate,
    });
    if (answer.status >= 200 && answer.status < 300) {
      await ctx.store.transaction((tx) => tx.websub.finish(job.id));
      return { kind: "sent" };
    }
    error = `the callback answered ${answer.status}`;
  } catch (thrown) {
    error = oneLine(thrown);
  }
  const now = ctx.clock.now();
  const nextAt = nextRetryAt(job.attempts + 1, job.created_at, now);
  await ctx.store.transaction((tx) =>
    nextAt === undefined ? tx.websub.finish(job.id) : tx.websub.retry(job.id, nextAt, error),
  );
  return nextAt === undefined ? { kind: "failed", error } : { kind: "retry", error };
}
