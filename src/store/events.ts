// What the store reports about its own work, for whoever listens (the metrics, when enabled),
// through node:diagnostics_channel: without a subscriber, publishing is one property check, so
// the store needs no knowledge of metrics and costs nothing when they are off.
import { channel } from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";

/** One commit: on SQLite a write batch (several transactions, write-batch.ts), on PostgreSQL one transaction. */
export interface CommitEvent {
  readonly engine: "sqlite" | "postgres";
  /** Transactions the commit carried. */
  readonly transactions: number;
  /** From the batch's (transaction's) start to the end of its commit. */
  readonly seconds: number;
  readonly failed: boolean;
}

/** One notification fan-out (every member's notification of one item), inside its transaction. */
export interface FanOutEvent {
  readonly seconds: number;
}

/** Published after every commit. */
export const commitChannel = channel("kairan:store:commit");
/** Published after every notification fan-out. */
export const fanOutChannel = channel("kairan:store:fan-out");

/** Runs `work`, and when anyone listens publishes how long it took, whether or not it failed. */
export async function timed<T>(
  target: typeof commitChannel,
  work: () => Promise<T>,
  event: (seconds: number, failed: boolean) => CommitEvent | FanOutEvent,
): Promise<T> {
  if (!target.hasSubscribers) return work();
  const start = performance.now();
  let failed = true;
  try {
    const value = await work();
    failed = false;
    return value;
  } finally {
    target.publish(event((performance.now() - start) / 1000, failed));
  }
}
