import { type Kysely, sql } from "kysely";
import { commitChannel, timed } from "../events.js";
import type { Database } from "../schema.js";

/** One caller's transaction waiting for its batch. */
interface Pending {
  /** `alone`: the only one of its batch, so its transaction is its own and needs no savepoint. */
  run(trx: Kysely<Database>, alone: boolean): Promise<void>;
  settle(commitError: unknown): void;
}

/** At most this many transactions share one commit: a batch holds the connection, reads wait. */
const MAX_BATCH = 32;

/**
 * Group commit for SQLite. A commit writes every page the transaction dirtied to the WAL, whole:
 * concurrent writes to one group dirty the same pages (the group's topics, its members' parts of
 * the notification index, its change version), and writing them once per batch instead of once per
 * transaction was the largest share of a write's CPU (about a fifth, measured with the bench's
 * create-topic row). The transactions that arrive while one runs are queued and then run one after
 * the other inside a single SQLite transaction, each in its own savepoint: one that fails is rolled
 * back to its savepoint alone and gets its own error, the others commit together. Every caller is
 * answered only after that commit (or gets its error), so nothing is acknowledged before it is in
 * the WAL. A transaction alone in its batch (no concurrent writers: the CLI, a quiet server) runs
 * without a savepoint, as before: a savepoint keeps a copy of every page it changes, which for a
 * fan-out to thousands of members is thousands of pages. The queue waits one event-loop turn (setImmediate) before a batch starts, so that the
 * requests read in the same turn join it.
 */
export class WriteBatcher {
  readonly #queue: Pending[] = [];
  #scheduled = false;

  /** `inTransaction`: whether the connection is still inside a transaction (better-sqlite3 knows). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly inTransaction: () => boolean,
  ) {}

  /** Runs `work` inside the next batch's transaction; resolves after that batch commits. */
  run<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    const inTransaction = this.inTransaction;
    return new Promise<T>((resolve, reject) => {
      let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
      this.#queue.push({
        async run(trx, alone) {
          if (alone) {
            // A failure rolls the whole transaction back, as it would without batching.
            outcome = { ok: true, value: await work(trx) };
            return;
          }
          await sql`savepoint kairan_write`.execute(trx);
          try {
            outcome = { ok: true, value: await work(trx) };
          } catch (error) {
            outcome = { ok: false, error };
            // After some errors (a full disk) SQLite has rolled the whole transaction back itself:
            // the batch is over, and this error, not "no such savepoint", is what every caller gets.
            if (!inTransaction()) throw error;
            await sql`rollback to kairan_write`.execute(trx);
          }
          await sql`release kairan_write`.execute(trx);
        },
        settle(commitError) {
          if (outcome === undefined)
            reject(commitError ?? new Error("the write batch ended before this transaction ran"));
          else if (!outcome.ok) reject(outcome.error);
          else if (commitError !== undefined) reject(commitError);
          else resolve(outcome.value);
        },
      });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, MAX_BATCH);
      let commitError: unknown;
      try {
        await timed(
          commitChannel,
          () =>
            this.db.transaction().execute(async (trx) => {
              for (const pending of batch) await pending.run(trx, batch.length === 1);
            }),
          (seconds, failed) => ({ engine: "sqlite", transactions: batch.length, seconds, failed }),
        );
      } catch (error) {
        commitError = error;
      }
      for (const pending of batch) pending.settle(commitError);
    }
    this.#scheduled = false;
  }
}
