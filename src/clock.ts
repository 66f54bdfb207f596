/** The source of "now", so tests can move time (edit leases, timestamps) without waiting. */
export interface Clock {
  now(): number;
}

/** Wall-clock time, truncated to whole seconds: the wire format has no fractions, and ordering
 * by a value clients cannot see would make equal timestamps sort differently from what they show. */
export const systemClock: Clock = { now: () => Math.floor(Date.now() / 1000) * 1000 };
