// The queries every leased queue shares: the mail outbox, webhook deliveries and WebSub jobs. A row
// is due when its next attempt's time has come and no live claim holds it. A sender claims a batch
// of due rows by writing when its claim ends on them (on PostgreSQL FOR UPDATE SKIP LOCKED leaves
// the rows another sender is claiming; SQLite has one writer, so the single UPDATE is atomic as it
// is), and gives its claims back when it stops or a process starts.
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";

/** The tables run as leased queues. */
type QueueTable = "mail_outbox" | "webhook_deliveries" | "websub_jobs";

/**
 * The columns the queue tables share. `status` exists only in the tables that keep finished rows
 * (`keepsFinished`); it is read only for them.
 */
interface QueueColumns {
  id: number;
  next_attempt_at: number;
  claimed_until: number | null;
  status: string;
}

/** The shared queries of one queue table. */
export interface LeaseQueue<Row> {
  /** When the next unclaimed row is due (it may be now or past); undefined when none waits. */
  nextAttemptAt(now: number): Promise<number | undefined>;
  /** Claims up to `limit` due rows until `until`; the earliest due first. */
  claimDue(now: number, until: number, limit: number): Promise<Row[]>;
  /** Gives back the claims of these rows (still waiting ones only). */
  releaseClaims(ids: readonly number[]): Promise<void>;
  /** Gives back every claim; returns how many rows were claimed. */
  releaseAllClaims(): Promise<number>;
}

/**
 * The shared queries over `table`. `keepsFinished`: the table keeps sent and failed rows beside the
 * waiting ones (`status` = 'queued' marks those that wait); otherwise a finished row is deleted.
 */
export function leaseQueue<T extends QueueTable>(
  db: Kysely<Database>,
  engine: Engine,
  table: T,
  keepsFinished: boolean,
): LeaseQueue<Selectable<Database[T]>> {
  // The three tables seen by the columns they share: Kysely cannot resolve the columns of a table
  // chosen by a type parameter, and these queries touch no other column.
  const queue = db as unknown as Kysely<Record<QueueTable, QueueColumns>>;
  const unclaimed = (now: number) => {
    const query = queue
      .selectFrom(table as QueueTable)
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", now)]));
    return keepsFinished ? query.where("status", "=", "queued") : query;
  };
  return {
    async nextAttemptAt(now) {
      const row = await unclaimed(now).select("next_attempt_at").orderBy("next_attempt_at").limit(1).executeTakeFirst();
      return row?.next_attempt_at;
    },
    async claimDue(now, until, limit) {
      const due = unclaimed(now)
        .select("id")
        .where("next_attempt_at", "<=", now)
        .orderBy("next_attempt_at")
        .orderBy("id")
        .limit(limit);
      const rows = await queue
        .updateTable(table as QueueTable)
        .set({ claimed_until: until })
        .where("id", "in", engine === "postgres" ? due.forUpdate().skipLocked() : due)
        .returningAll()
        .execute();
      rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id - b.id);
      // Every column of the table was returned: the rows are the table's own.
      return rows as unknown as Selectable<Database[T]>[];
    },
    async releaseClaims(ids) {
      if (ids.length === 0) return;
      let query = queue
        .updateTable(table as QueueTable)
        .set({ claimed_until: null })
        .where("id", "in", ids);
      if (keepsFinished) query = query.where("status", "=", "queued");
      await query.execute();
    },
    async releaseAllClaims() {
      let query = queue
        .updateTable(table as QueueTable)
        .set({ claimed_until: null })
        .where("claimed_until", "is not", null);
      if (keepsFinished) query = query.where("status", "=", "queued");
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
