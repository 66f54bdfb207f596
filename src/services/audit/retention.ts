// The audit log's retention: every server process started by `kairan serve` deletes the rows older
// than the site's setting `auditRetentionDays`, at most once an hour (read afresh at each pass, so a
// change in the admin pages applies at the next one). Several processes may prune at once: a
// delete by age is the same whoever runs it.
import { SYSTEM_ACTOR } from "../../domain/audit.js";
import { type SettingsContext, readSiteSettings } from "../settings/site-settings.js";
import { pruneAudit } from "./audit-log.js";
import { pruneTombstones } from "../item/changes.js";

/** Where a pass is reported (pino's signature). */
export interface PrunerLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** What one pass did: undefined when the last one was less than an hour ago. */
export interface PrunePass {
  readonly keepDays: number;
  readonly deleted: number;
}

/** How often at most a pass deletes, and how often the timer looks. */
export const AUDIT_PRUNE_EVERY_MS = 60 * 60_000;

/** Prunes the audit log hourly while started; `runNow` runs a pass if an hour has passed (by the clock). */
export class AuditPruner {
  #timer: NodeJS.Timeout | undefined;
  #last: Promise<unknown> = Promise.resolve();
  #prunedAt = Number.NEGATIVE_INFINITY;
  #stopped = true;

  constructor(
    private readonly ctx: SettingsContext,
    private readonly log: PrunerLog,
  ) {}

  /** Starts the passes: the first at once (a server started after a long stop catches up), then hourly. */
  start(): void {
    this.#stopped = false;
    this.#tick();
  }

  /** Stops the passes and waits for the one under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#last.catch(() => undefined);
  }

  /** A pass now, after the one under way, unless the last one was less than an hour ago by the clock. */
  runNow(): Promise<PrunePass | undefined> {
    const pass = this.#last.catch(() => undefined).then(() => this.#pass());
    this.#last = pass;
    return pass;
  }

  async #pass(): Promise<PrunePass | undefined> {
    const now = this.ctx.clock.now();
    if (now - this.#prunedAt < AUDIT_PRUNE_EVERY_MS) return undefined;
    this.#prunedAt = now;
    // Delta sync's tombstones share the hourly pass (docs/architecture.md "Delta sync").
    const tombstones = await pruneTombstones(this.ctx);
    this.log.info({ tombstones }, "delta sync: tombstones older than the retention deleted");
    const keepDays = (await readSiteSettings(this.ctx)).auditRetentionDays;
    const deleted = await pruneAudit(this.ctx, keepDays);
    this.log.info({ keepDays, deleted, by: SYSTEM_ACTOR.label }, "audit log: rows older than the retention deleted");
    return { keepDays, deleted };
  }

  #tick(): void {
    if (this.#stopped) return;
    this.runNow().then(
      () => this.#schedule(),
      (error: unknown) => {
        // The database is away: the next hour tries again.
        this.log.warn({ err: error instanceof Error ? error.message : String(error) }, "audit log: pruning failed");
        this.#schedule();
      },
    );
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => this.#tick(), AUDIT_PRUNE_EVERY_MS).unref();
  }
}
