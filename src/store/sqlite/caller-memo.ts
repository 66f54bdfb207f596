import type SQLite from "better-sqlite3";
import type { CallerView } from "../queries/view-version.js";

/** Callers remembered at most; past it the memo starts over (a poll costs one full query again). */
const MEMO_ENTRIES = 4096;

/**
 * The fast path's caller and view version on SQLite, remembered until anything is written to the
 * database (docs/architecture.md "The fast path of a poll"). The full query costs tens of
 * microseconds in a busy server (several index descents through a cache the rest of the request
 * has just evicted); a poll whose database has not changed since the last one learns that from
 * one statement reading two counters: `data_version` moves with every commit of another
 * connection, `total_changes()` with every row written through this one (the server's). The
 * counters are read before the full query they are kept with, so a commit that slips between the
 * two can only make the memo look older than it is (one more full query), never newer. A token
 * that is not live is never remembered: its refusal takes the general path.
 *
 * The counters are read on the connection directly, not through Kysely (whose queue would make
 * the check wait for a write batch in progress and cost a few promise turns): while a batch has
 * written nothing yet the memo is still the committed state, and once it has written a row the
 * counter has moved and the full query waits for the batch like any other read.
 */
export function memoisedCallerView(
  database: SQLite.Database,
  read: (tokenHash: string) => Promise<CallerView | undefined>,
): (tokenHash: string) => Promise<CallerView | undefined> {
  let counters: (() => string) | undefined;
  let clock: SQLite.Statement<[], number> | undefined;
  let seen = "";
  const memo = new Map<string, CallerView>();
  return async (tokenHash) => {
    counters ??= commitCounters(database);
    clock ??= database.prepare<[], number>(`SELECT CAST(unixepoch('subsec') * 1000 AS INTEGER)`).pluck();
    const stamp = counters();
    if (stamp !== seen) {
      memo.clear();
      seen = stamp;
    }
    const kept = memo.get(tokenHash);
    if (kept !== undefined) return { grant: kept.grant, version: { ...kept.version, now: clock.get() ?? Date.now() } };
    const found = await read(tokenHash);
    if (found === undefined || seen !== stamp) return found;
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(tokenHash, found);
    return found;
  };
}

/**
 * A reader of both counters as one string. `PRAGMA data_version` moves when another connection (a
 * process, a `kairan` command, an operator's SQL) commits; `total_changes()` counts the rows this
 * connection has inserted, updated or deleted since it opened. The pragma is its own prepared
 * statement: through the `pragma_data_version` table function it was parsed again at every call.
 */
function commitCounters(database: SQLite.Database): () => string {
  const version = database.prepare<[], number>("PRAGMA data_version").pluck();
  const changes = database.prepare<[], number>("SELECT total_changes()").pluck();
  return () => `${version.get()}:${changes.get()}`;
}
