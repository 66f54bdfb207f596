// The sender: one per server process. It claims due messages of the outbox in batches, delivers
// them through the transport (SMTP or the outbox folder) and records each outcome. Claims are
// leases (claimed_until): a process killed while sending leaves claims that run out, and the
// messages are sent again, with the same Message-ID, by whichever process claims them next.
// The transport is chosen with each claim (relay-route.ts): a relay saved in the settings applies
// to the next batch.
import type { OutboxMail } from "../../store/queries/mail-outbox.js";
import type { ServiceContext } from "../context.js";
import { MAX_ATTEMPTS, classifyFailure, retryDelayMs } from "./retry.js";
import { SentRecorder } from "./sent-recorder.js";
import { type MailRoute, fixedRoute } from "./relay-route.js";
import type { MailTransport } from "./transport.js";
import { siteNameIn } from "../settings/site-locale.js";

/** Where the sender reports delivery failures (pino's signature: fields, then the message). */
export interface MailLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Tunables; the defaults are the server's. */
export interface SenderOptions {
  /** Messages claimed at once. */
  readonly batchSize?: number;
  /** How long a claim holds; renewed every third of it while the batch is being delivered. */
  readonly leaseMs?: number;
  /** The longest sleep between looks at the outbox: other processes' messages, retries coming due. */
  readonly pollMs?: number;
  /**
   * Take back every claim at start. Only where one process sends (SQLite): a claim left in the
   * database is then a stopped process's, and its messages need not wait for the lease to run out.
   */
  readonly releaseClaimsAtStart?: boolean;
}

/** One claim's worth: large enough that claiming costs little per message (bench/mail.ts). */
const BATCH_SIZE = 100;
const LEASE_MS = 30_000;
const POLL_MS = 2_000;
/**
 * Delivered messages are kept a month (what was sent to whom, for the operator), failed ones three
 * (to be looked into); then deleted, at most once an hour, so the table does not grow with every
 * post to a large group (5,000 messages each).
 */
export const KEEP_SENT_MS = 30 * 24 * 3_600_000;
export const KEEP_FAILED_MS = 90 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The figures the metrics read. */
export interface SenderTally {
  /** Messages this process delivered. */
  readonly sent: number;
  /** Messages this process gave up on (a permanent refusal, or the last attempt failed). */
  readonly failed: number;
}

export class MailSender implements SenderTally {
  #sent = 0;
  #failed = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopping = false;
  #started = false;
  #prunedAt = Number.NEGATIVE_INFINITY;
  readonly #batchSize: number;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #recorder: SentRecorder;
  readonly #route: MailRoute;

  /** `transport`: one transport for good, or a route that chooses one with each claim. */
  constructor(
    private readonly ctx: Pick<ServiceContext, "store" | "clock">,
    transport: MailTransport | MailRoute,
    private readonly log: MailLog,
    private readonly options: SenderOptions = {},
  ) {
    this.#route = "readIn" in transport ? transport : fixedRoute(transport);
    this.#batchSize = options.batchSize ?? BATCH_SIZE;
    this.#leaseMs = options.leaseMs ?? LEASE_MS;
    this.#pollMs = options.pollMs ?? POLL_MS;
    this.#recorder = new SentRecorder(ctx, (error, ids) =>
      this.log.warn(
        { err: this.#reason(error), messages: ids.length },
        "mail: could not record delivered messages as sent; they will be sent again once their claim runs out",
      ),
    );
  }

  get sent(): number {
    return this.#sent;
  }

  get failed(): number {
    return this.#failed;
  }

  /** Starts sending: at once, then on every wake and poll. */
  start(): void {
    if (this.#started || this.#stopping) return;
    this.#started = true;
    this.#running = (async () => {
      if (this.options.releaseClaimsAtStart) {
        try {
          await this.ctx.store.transaction((tx) => tx.mailOutbox.releaseAllClaims());
        } catch (error) {
          // Then they run out as on PostgreSQL.
          this.log.warn({ err: this.#reason(error) }, "mail: could not take back claims left by a stopped process");
        }
      }
      await this.#loop();
    })();
  }

  /** Mail was queued (and committed) in this process: look now rather than at the next poll. */
  wake(): void {
    if (!this.#started || this.#stopping) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#loop();
  }

  /**
   * Stops: no new claim; the messages being delivered finish and are recorded, the rest of the
   * batch is released for the next process. Resolves once nothing is in flight.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    while (this.#running !== undefined) await this.#running;
    this.#route.close();
  }

  /** Claims and delivers batches while messages are due, then sleeps until the next is due, a wake or the poll. */
  async #loop(): Promise<void> {
    let sleepMs: number;
    try {
      do {
        this.#again = false;
        sleepMs = await this.#drainDue();
      } while (this.#again && !this.#stopping);
    } catch (error) {
      // The database is away (a restart, a failover): the next poll tries again.
      this.log.warn({ err: this.#reason(error) }, "mail: could not read the outbox; trying again shortly");
      sleepMs = this.#pollMs;
    } finally {
      this.#running = undefined;
    }
    if (!this.#stopping) this.#timer = setTimeout(() => this.wake(), sleepMs).unref();
    if (this.#again && !this.#stopping) this.wake();
  }

  /** Delivers every batch due now; returns how long to sleep before looking again. */
  async #drainDue(): Promise<number> {
    while (!this.#stopping) {
      const now = this.ctx.clock.now();
      // A read first: looking at an idle outbox every few seconds costs no write transaction.
      const next = await this.ctx.store.read((tx) => tx.mailOutbox.nextAttemptAt(now));
      if (next === undefined || next > now) await this.#pruneHourly(now);
      if (next === undefined) return this.#pollMs;
      if (next > now) return Math.min(next - now, this.#pollMs);
      // The site's name (the From's display name) and the saved relay are read with each claim: a
      // change applies at once.
      const { rows, fromName, relay } = await this.ctx.store.transaction(async (tx) => ({
        rows: await tx.mailOutbox.claimDue(now, now + this.#leaseMs, this.#batchSize),
        fromName: await siteNameIn(tx),
        relay: await this.#route.readIn(tx),
      }));
      // Another process claimed them between the look and the claim.
      if (rows.length === 0) return this.#pollMs;
      let transport: MailTransport;
      try {
        transport = await this.#route.transportFor(relay);
      } catch (error) {
        // The saved relay could not be opened (the database away): the batch goes back at once.
        await this.ctx.store.transaction((tx) => tx.mailOutbox.releaseClaims(rows.map((row) => row.id)));
        throw error;
      }
      await this.#deliverBatch(rows, fromName, transport);
    }
    return this.#pollMs;
  }

  /** Deletes old sent and failed messages, when idle and an hour after the last time. */
  async #pruneHourly(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await this.ctx.store.transaction((tx) => tx.mailOutbox.deleteFinished(now - KEEP_SENT_MS, now - KEEP_FAILED_MS));
  }

  async #deliverBatch(rows: readonly OutboxMail[], fromName: string, transport: MailTransport): Promise<void> {
    const waiting = rows.slice();
    const pending = new Set(rows.map((row) => row.id));
    const renew = setInterval(() => {
      const until = this.ctx.clock.now() + this.#leaseMs;
      this.ctx.store
        .transaction((tx) => tx.mailOutbox.extendClaims([...pending], until))
        .catch((error: unknown) => this.log.warn({ err: this.#reason(error) }, "mail: could not renew claims"));
    }, this.#leaseMs / 3).unref();
    const worker = async () => {
      for (let row = waiting.shift(); row !== undefined && !this.#stopping; row = waiting.shift()) {
        await this.#deliverOne(row, fromName, transport);
        pending.delete(row.id);
      }
    };
    try {
      const workers = Math.max(1, Math.min(transport.concurrency, rows.length));
      await Promise.all(Array.from({ length: workers }, worker));
      await this.#recorder.flush();
    } finally {
      clearInterval(renew);
    }
    // Stopping: what was not started goes back to the queue at once, for this or another process.
    const unsent = rows.filter((row) => pending.has(row.id)).map((row) => row.id);
    if (unsent.length > 0) await this.ctx.store.transaction((tx) => tx.mailOutbox.releaseClaims(unsent));
  }

  /** Never throws: a worker that stopped half-way would leave its rows claimed and unsent. */
  async #deliverOne(row: OutboxMail, fromName: string, transport: MailTransport): Promise<void> {
    try {
      await transport.deliver(row, fromName);
    } catch (error) {
      await this.#recordFailure(row, error).catch((recordError: unknown) =>
        // Its claim runs out and it is tried again: one attempt more than counted.
        this.log.warn({ err: this.#reason(recordError) }, "mail: could not record a failed delivery"),
      );
      return;
    }
    this.#sent += 1;
    this.#recorder.add(row.id);
  }

  async #recordFailure(row: OutboxMail, error: unknown): Promise<void> {
    const failure = classifyFailure(error, this.#route.secrets);
    const attempts = row.attempts + 1;
    const now = this.ctx.clock.now();
    const nextAt = failure.permanent || attempts >= MAX_ATTEMPTS ? undefined : now + retryDelayMs(attempts);
    await this.ctx.store.transaction((tx) => tx.mailOutbox.markAttemptFailed(row.id, failure.reason, nextAt));
    if (nextAt === undefined) this.#failed += 1;
    // The Message-ID and kind identify the message; never its body, never the relay's password.
    this.log.warn(
      {
        messageId: row.message_id,
        kind: row.kind,
        attempts,
        ...(nextAt === undefined ? {} : { retryAt: new Date(nextAt).toISOString() }),
        err: failure.reason,
      },
      nextAt === undefined ? "mail: delivery failed for good" : "mail: delivery failed; will retry",
    );
  }

  #reason(error: unknown): string {
    return classifyFailure(error, this.#route.secrets).reason;
  }
}
