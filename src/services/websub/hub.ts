// The WebSub hub's sender: one per server process, on the outbound senders' loop
// (services/outbound/drain-loop.ts). Each pass first looks at the subscriptions (check.ts: ended
// ones removed, changed feeds queued), then sends the due jobs (send.ts). A commit in this process
// wakes it (wake.ts) whenever it holds subscriptions or the commit queued a job, so a new comment
// is pushed right after its commit; a poll covers other processes' writes.
import { WEBSUB_LIMITS } from "../../domain/websub.js";
import type { WebSubJobRow } from "../../store/queries/websub.js";
import { type ClaimQueue, DrainLoop, type OutboundLog, drainQueue, oneLine } from "../outbound/drain-loop.js";
import { checkSubscriptions } from "./check.js";
import type { WebSubContext } from "./context.js";
import { sendJob } from "./send.js";
import { websubQueued } from "./wake.js";

/** Tunables; the defaults are the server's. */
export interface WebSubHubOptions {
  readonly pollMs?: number;
  readonly releaseClaimsAtStart?: boolean;
  readonly timeoutMs?: number;
}

const BATCH_SIZE = 10;
const LEASE_MS = WEBSUB_LIMITS.requestTimeoutMs * 6;
const POLL_MS = 5_000;

/** Verifies, checks and distributes; `runNow` lets tests run a pass at their clock's time. */
export class WebSubHub {
  readonly #loop: DrainLoop;
  /** Subscriptions and jobs seen by the last pass: none, and a commit queued nothing, is no reason to look. */
  #work = 0;
  #queuedSeen = websubQueued.count;

  constructor(
    private readonly ctx: WebSubContext,
    private readonly log: OutboundLog,
    options: WebSubHubOptions = {},
  ) {
    const pollMs = options.pollMs ?? POLL_MS;
    const timeoutMs = options.timeoutMs ?? WEBSUB_LIMITS.requestTimeoutMs;
    const queue: ClaimQueue<WebSubJobRow> = {
      nextAttemptAt: (now) => ctx.store.read((tx) => tx.websub.nextAttemptAt(now)),
      claimDue: (now, until, limit) => ctx.store.transaction((tx) => tx.websub.claimDue(now, until, limit)),
      deliver: (job) => this.#send(job, timeoutMs),
    };
    this.#loop = new DrainLoop(
      async (stopping) => {
        this.#queuedSeen = websubQueued.count;
        const checked = await checkSubscriptions(ctx, stopping);
        for (const end of checked.ended)
          this.log.warn({ subscription: end.id, reason: end.reason }, "websub: subscription ended");
        for (const failure of checked.failed)
          this.log.warn(
            { subscription: failure.id, err: oneLine(failure.error) },
            "websub: could not look at a subscription",
          );
        const sleep = await drainQueue(queue, {
          clock: ctx.clock,
          pollMs,
          leaseMs: LEASE_MS,
          batchSize: BATCH_SIZE,
          stopping,
        });
        this.#work = await ctx.store.read((tx) => tx.websub.workCount());
        return sleep;
      },
      {
        pollMs,
        log,
        name: "websub",
        beforeStart: options.releaseClaimsAtStart
          ? () => ctx.store.transaction((tx) => tx.websub.releaseAllClaims())
          : undefined,
      },
    );
  }

  /** Starts: a pass at once, then on every wake and poll. */
  start(): void {
    this.#loop.start();
  }

  /** A transaction committed in this process: look when it may concern the hub. */
  wake(): void {
    if (this.#work === 0 && websubQueued.count === this.#queuedSeen) return;
    this.#loop.wake();
  }

  /** Runs a pass now and waits for it (tests, with their clock). */
  async runNow(): Promise<void> {
    await this.#loop.runNow();
  }

  /** Stops: nothing new is claimed; jobs under way finish. */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  async #send(job: WebSubJobRow, timeoutMs: number): Promise<void> {
    try {
      const outcome = await sendJob(this.ctx, job, timeoutMs);
      if (outcome.kind === "retry" || outcome.kind === "failed")
        this.log.warn({ job: job.id, kind: job.kind, outcome: outcome.kind, err: outcome.error }, "websub: not sent");
    } catch (error) {
      this.log.warn({ err: oneLine(error), job: job.id }, "websub: could not send a job; it is retried");
      await this.ctx.store
        .transaction((tx) => tx.websub.retry(job.id, this.ctx.clock.now(), oneLine(error)))
        .catch(() => undefined);
    }
  }
}
