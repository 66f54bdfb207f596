// The webhook sender: one per server process, like the mail sender (services/mail/sender.ts), on
// the outbound senders' loop (services/outbound/drain-loop.ts). It claims due deliveries with a lease (a killed process's claims run out and any process sends
// them), re-checks that the webhook's owner may still read what each tells, builds and fixes its
// body at the first attempt, signs it, posts it through the guarded client, and records the
// outcome: sent, retried on the back-off schedule for 24 hours, or failed. A webhook whose
// attempts fail WEBHOOK_LIMITS.disableAfterFailures times in a row disables itself and its owner
// is told by mail.
import { open } from "../../auth/secret-box.js";
import type { MailConfig } from "../../config/mail.js";
import { formatPair } from "../../domain/item-id.js";
import { WEBHOOK_LIMITS, nextRetryAt } from "../../domain/webhook.js";
import { webhookDisabledMail } from "../../mail/account/webhook-disabled.js";
import type { WebhookAttempt, WebhookDeliveryRow, WebhookRow } from "../../store/queries/webhooks.js";
import type { Tx } from "../../store/store.js";
import { recipientLocale } from "../account/mail-recipient.js";
import type { ServiceContext } from "../context.js";
import { queueMail } from "../mail/outbox.js";
import { type ClaimQueue, DrainLoop, type OutboundLog, drainQueue, oneLine } from "../outbound/drain-loop.js";
import { guardedRequest } from "../outbound/guarded-request.js";
import { siteKey } from "../site-key.js";
import { ownerMayRead } from "./access.js";
import { buildPayload } from "./payload.js";
import { signedHeaders } from "./sign.js";
import { secretOwner } from "./webhooks.js";

/** Where the sender reports trouble (pino's signature). Never given a secret or a signature. */
export type WebhookLog = OutboundLog;

/** What the sender needs besides the store and clock. */
export interface WebhookSenderContext extends ServiceContext {
  readonly baseUrl: () => string;
  readonly config: {
    readonly mail: MailConfig;
    readonly locale: "ja" | "en";
    readonly timeZone: string;
    /** `--webhook-allow-private`. */
    readonly webhookAllowPrivate: boolean;
  };
}

/** Tunables; the defaults are the server's. */
export interface WebhookSenderOptions {
  readonly pollMs?: number;
  readonly releaseClaimsAtStart?: boolean;
  /** How long one delivery may take (WEBHOOK_LIMITS.requestTimeoutMs). */
  readonly timeoutMs?: number;
}

/** Deliveries claimed at once and sent side by side. */
const BATCH_SIZE = 10;
/** Longer than a delivery may take: a claim never runs out under a live sender. */
const LEASE_MS = WEBHOOK_LIMITS.requestTimeoutMs * 6;
const POLL_MS = 2_000;
const PRUNE_EVERY_MS = 3_600_000;

/** Sends the webhook queue; `runNow` lets tests send what is due at their clock's time. */
export class WebhookSender {
  #prunedAt = Number.NEGATIVE_INFINITY;
  readonly #timeoutMs: number;
  readonly #loop: DrainLoop;

  constructor(
    private readonly ctx: WebhookSenderContext,
    private readonly log: WebhookLog,
    options: WebhookSenderOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_LIMITS.requestTimeoutMs;
    const pollMs = options.pollMs ?? POLL_MS;
    const queue: ClaimQueue<WebhookDeliveryRow> = {
      nextAttemptAt: (now) => ctx.store.read((tx) => tx.webhooks.nextAttemptAt(now)),
      claimDue: (now, until, limit) => ctx.store.transaction((tx) => tx.webhooks.claimDue(now, until, limit)),
      deliver: (row) => this.#deliver(row),
      idle: (now) => this.#pruneHourly(now),
    };
    this.#loop = new DrainLoop(
      (stopping) => drainQueue(queue, { clock: ctx.clock, pollMs, leaseMs: LEASE_MS, batchSize: BATCH_SIZE, stopping }),
      {
        pollMs,
        log,
        name: "webhook",
        beforeStart: options.releaseClaimsAtStart
          ? () => ctx.store.transaction((tx) => tx.webhooks.releaseAllClaims())
          : undefined,
      },
    );
  }

  /** Starts sending: at once, then on every wake and poll. */
  start(): void {
    this.#loop.start();
  }

  /** Deliveries were queued and committed in this process: look now. */
  wake(): void {
    this.#loop.wake();
  }

  /** Sends everything due now and waits for it (tests, with their clock). */
  async runNow(): Promise<void> {
    await this.#loop.runNow();
  }

  /** Stops: no new claim; deliveries under way finish. */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #pruneHourly(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await this.ctx.store.transaction((tx) => tx.webhooks.prune(now - WEBHOOK_LIMITS.logKeepMs));
  }

  /** One delivery, from the re-check to the recorded outcome. */
  async #deliver(row: WebhookDeliveryRow): Promise<void> {
    try {
      const prepared = await this.#prepare(row);
      if (prepared === undefined) return;
      const attempt = await this.#post(row, prepared.hook, prepared.body);
      const failures = await this.ctx.store.transaction((tx) => tx.webhooks.recordAttempt(row, attempt));
      if (attempt.outcome.kind !== "sent" && failures >= WEBHOOK_LIMITS.disableAfterFailures)
        await this.#disable(prepared.hook, failures);
    } catch (error) {
      this.log.warn({ err: oneLine(error), delivery: row.id }, "webhook: could not send a delivery; it is retried");
      await this.ctx.store.transaction((tx) => tx.webhooks.releaseClaims([row.id])).catch(() => undefined);
    }
  }

  /** The webhook and the body to send, or undefined when the delivery is not to be sent (recorded so). */
  async #prepare(row: WebhookDeliveryRow): Promise<{ hook: WebhookRow; body: string } | undefined> {
    const now = this.ctx.clock.now();
    return this.ctx.store.transaction(async (tx) => {
      const hook = await tx.webhooks.find(row.webhook_id);
      if (hook === undefined) return undefined;
      if (hook.disabled_at !== null) {
        await tx.webhooks.setDisabled(hook.id, hook.disabled_at);
        return undefined;
      }
      const refusal = await ownerMayRead(tx, hook, row);
      if (refusal !== undefined) {
        await tx.webhooks.skip(row.id, now, refusal);
        return undefined;
      }
      if (row.payload !== null) return { hook, body: row.payload };
      const payload = await buildPayload(tx, this.ctx.baseUrl(), hook, row);
      if (payload === undefined) {
        await tx.webhooks.skip(row.id, now, "what it tells of can no longer be read");
        return undefined;
      }
      const body = JSON.stringify(payload);
      await tx.webhooks.setPayload(row.id, body);
      return { hook, body };
    });
  }

  /** Signs and posts; the outcome and when to try again. */
  async #post(row: WebhookDeliveryRow, hook: WebhookRow, body: string): Promise<WebhookAttempt> {
    const key = await siteKey(this.ctx, "webhook-secret");
    const secret = open(key, secretOwner(hook.id), hook.secret);
    const at = this.ctx.clock.now();
    const retry = (): WebhookAttempt["outcome"] => {
      const nextAt = nextRetryAt(row.attempts + 1, row.created_at, at);
      return nextAt === undefined ? { kind: "failed" } : { kind: "retry", nextAt };
    };
    if (secret === undefined)
      return { at, status: null, excerpt: null, error: "the secret cannot be opened", outcome: { kind: "failed" } };
    try {
      const response = await guardedRequest({
        url: hook.url,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Kairan-Webhook",
          ...signedHeaders(secret, { id: row.message_id, at, body }),
        },
        body,
        timeoutMs: this.#timeoutMs,
        excerptChars: WEBHOOK_LIMITS.responseExcerptChars,
        allowPrivate: this.ctx.config.webhookAllowPrivate,
      });
      const ok = response.status >= 200 && response.status < 300;
      return {
        at,
        status: response.status,
        excerpt: response.excerpt,
        error: ok ? null : `the receiver answered ${response.status}`,
        outcome: ok ? { kind: "sent" } : retry(),
      };
    } catch (error) {
      return { at, status: null, excerpt: null, error: oneLine(error), outcome: retry() };
    }
  }

  /** Disables the webhook and tells its owner (the operator's: the log). */
  async #disable(hook: WebhookRow, failures: number): Promise<void> {
    const now = this.ctx.clock.now();
    await this.ctx.store.transaction(async (tx) => {
      await tx.webhooks.setDisabled(hook.id, now);
      if (hook.owner_id !== null) await this.#tellOwner(tx, hook, hook.owner_id, failures, now);
    });
    this.log.warn({ webhook: hook.id, failures }, "webhook: disabled after repeated failed deliveries");
  }

  async #tellOwner(tx: Tx, hook: WebhookRow, ownerId: number, failures: number, now: number): Promise<void> {
    const owner = await tx.users.findById(ownerId);
    if (owner === undefined) return;
    const locale = await recipientLocale(tx, this.ctx, owner.id);
    const path = hook.group_id === null ? "/account/webhooks" : `/g/${formatPair(hook.group_id)}/webhooks`;
    const composed = webhookDisabledMail({
      ...locale,
      name: owner.name,
      url: hook.url,
      failures,
      link: `${this.ctx.baseUrl()}${path}/${hook.id}`,
    });
    await queueMail(
      tx,
      this.ctx.config.mail,
      { kind: "webhook-disabled", to: owner.email, toName: owner.name, userId: owner.id, ...composed },
      now,
    );
  }
}
