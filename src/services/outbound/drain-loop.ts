// The loop every outbound sender runs (webhooks, WebSub): one per server process; it drains what
// is due at once, then on every wake (a commit in this process queued something) and on a poll
// (other processes' rows, retries coming due). Claims carry a lease, so a killed process's claims
// run out and any process sends them. What a row is, and how it is sent, is the caller's.
import type { Clock } from "../../clock.js";

/** A durable queue the loop drains: claimed with a lease, delivered side by side. */
export interface ClaimQueue<Row> {
  /** When the next unclaimed row is due; undefined when none is queued. */
  nextAttemptAt(now: number): Promise<number | undefined>;
  /** Claims up to `limit` rows due at `now` until `until`. */
  claimDue(now: number, until: number, limit: number): Promise<Row[]>;
  /** Sends one row and records its outcome; never throws. */
  deliver(row: Row): Promise<void>;
  /** Housekeeping when nothing is due now (pruning old rows). */
  idle?(now: number): Promise<void>;
}

/** How a queue is drained. */
export interface DrainOptions {
  readonly clock: Clock;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly batchSize: number;
  readonly stopping: () => boolean;
}

/** Sends every due batch of `queue`; returns how long to sleep before looking again. */
export async function drainQueue<Row>(queue: ClaimQueue<Row>, options: DrainOptions): Promise<number> {
  while (!options.stopping()) {
    const now = options.clock.now();
    const next = await queue.nextAttemptAt(now);
    if ((next === undefined || next > now) && queue.idle !== undefined) await queue.idle(now);
    if (next === undefined) return options.pollMs;
    if (next > now) return Math.min(next - now, options.pollMs);
    const rows = await queue.claimDue(now, now + options.leaseMs, options.batchSize);
    if (rows.length === 0) return options.pollMs;
    await Promise.all(rows.map((row) => queue.deliver(row)));
  }
  return options.pollMs;
}

/** Where a loop reports trouble (pino's signature). Never given a secret or a signature. */
export interface OutboundLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** One pass: does what is due, returns how long to sleep. */
export type DrainPass = (stopping: () => boolean) => Promise<number>;

/** Runs `pass` at start, on every wake and on the poll; `runNow` lets tests run it at their clock's time. */
export class DrainLoop {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopping = false;
  #started = false;

  constructor(
    private readonly pass: DrainPass,
    private readonly options: {
      readonly pollMs: number;
      readonly log: OutboundLog;
      /** Names the loop in its log lines. */
      readonly name: string;
      /** Runs once before the first pass (releasing the claims of a previous process). */
      readonly beforeStart?: () => Promise<unknown>;
    },
  ) {}

  /** True once stop was called. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Starts: a pass at once, then on every wake and poll. */
  start(): void {
    if (this.#started || this.#stopping) return;
    this.#started = true;
    this.#running = (async () => {
      if (this.options.beforeStart !== undefined) await this.options.beforeStart().catch(() => undefined);
      await this.#loop();
    })();
  }

  /** Something was queued and committed in this process: look now. */
  wake(): void {
    if (!this.#started || this.#stopping) return;
    if (this.#running !== undefined) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#loop();
  }

  /** Runs one pass now and waits for it (tests, with their clock). */
  async runNow(): Promise<void> {
    while (this.#running !== undefined) await this.#running;
    const run = this.pass(() => this.#stopping).then(() => undefined);
    this.#running = run.finally(() => {
      this.#running = undefined;
    });
    await this.#running;
  }

  /** Stops: nothing new is claimed; deliveries under way finish. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    while (this.#running !== undefined) await this.#running;
  }

  async #loop(): Promise<void> {
    let sleepMs = this.options.pollMs;
    try {
      do {
        this.#again = false;
        sleepMs = await this.pass(() => this.#stopping);
      } while (this.#again && !this.#stopping);
    } catch (error) {
      this.options.log.warn(
        { err: oneLine(error) },
        `${this.options.name}: could not read the queue; trying again shortly`,
      );
    } finally {
      this.#running = undefined;
    }
    if (!this.#stopping) this.#timer = setTimeout(() => this.wake(), sleepMs).unref();
  }
}

/** One line naming a failure, never a stack (nor anything the request carried). */
export function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0]?.slice(0, 300) ?? "";
}
