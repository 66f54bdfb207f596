// The notification mailer: one per server process, beside the outbox's sender. Every pass turns
// what is due into outbox rows (personal mail, coalesced changes, digests) and forgets old log
// rows; the sender then delivers them. Passes of one process never overlap; passes of several
// processes (PostgreSQL) may, and their compare-and-set claims keep each message written once.
import { MAIL_TIMING } from "../../domain/mail-schedule.js";
import type { NotifyContext } from "./compose.js";
import { mailDigests } from "./digest.js";
import { mailBatches, openDueBatches } from "./each-change.js";
import { mailPersonal } from "./personal.js";
import { mailReminders } from "./reminders.js";

/** What one pass did. */
export interface MailerPass {
  /** Messages of mentions, assignments and direct messages. */
  readonly personal: number;
  /** Items whose changes became a batch. */
  readonly batches: number;
  /** Messages of coalesced changes. */
  readonly changes: number;
  readonly digests: number;
  /** Messages reminding of events. */
  readonly reminders: number;
}

/** One pass at the clock's time. */
export async function runNotificationMail(ctx: NotifyContext): Promise<MailerPass> {
  const now = ctx.clock.now();
  const personal = await mailPersonal(ctx, now);
  const batches = await openDueBatches(ctx, now);
  const changes = await mailBatches(ctx, now);
  const digests = await mailDigests(ctx, now);
  const reminders = await mailReminders(ctx, now);
  await ctx.store.transaction((tx) => tx.mailWork.prune(now - MAIL_TIMING.keepChangesMs));
  return { personal, batches, changes, digests, reminders };
}

/** Where a failed pass is reported (pino's signature). */
export interface MailerLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/** How often a pass runs: the delay of "at once" mail, at most. */
const INTERVAL_MS = 15_000;

/** Runs a pass every INTERVAL_MS while started; `runNow` runs one after any pass under way. */
export class NotificationMailer {
  #timer: NodeJS.Timeout | undefined;
  #last: Promise<unknown> = Promise.resolve();
  #stopped = true;

  constructor(
    private readonly ctx: NotifyContext,
    private readonly log: MailerLog,
    private readonly intervalMs = INTERVAL_MS,
  ) {}

  /** Starts the passes (the first after one interval). */
  start(): void {
    this.#stopped = false;
    this.#schedule();
  }

  /** Stops the passes and waits for the one under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#last.catch(() => undefined);
  }

  /** Runs a pass now, after the one under way (tests and benchmarks: the clock decides what is due). */
  runNow(): Promise<MailerPass> {
    const pass = this.#last.catch(() => undefined).then(() => runNotificationMail(this.ctx));
    this.#last = pass;
    return pass;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.runNow().then(
        () => this.#schedule(),
        (error: unknown) => {
          this.log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            "mail: a notification pass failed",
          );
          this.#schedule();
        },
      );
    }, this.intervalMs);
    // A waiting pass keeps no process alive (a command that built the app exits when done).
    this.#timer.unref();
  }
}
