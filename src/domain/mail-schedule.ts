// When notification mail is due: the coalescing window of "each change", the wait before an unread
// direct message is mailed, and the daily digest's moments in a person's time zone.
import { utcToWallClock, wallClockToUtc } from "./time-zone.js";

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** The timing of notification mail (docs/operations.md "Notification mail"). */
export const MAIL_TIMING = {
  /** Changes to one item within this long of its first unmailed change make one message. */
  coalesceMs: 5 * MINUTE_MS,
  /** A direct message still unread this long after it was written is mailed. */
  chatUnreadMs: 5 * MINUTE_MS,
  /** A digest hour noticed this long after it began (the server was down) is not sent late. */
  digestLateMs: HOUR_MS,
  /** Logged changes are kept this long (a digest reads the last day's). */
  keepChangesMs: 3 * DAY_MS,
  /** How long an unsubscribe link works. */
  unsubscribeTtlMs: 180 * DAY_MS,
} as const;

/**
 * The latest moment at or before `now` when the clock of `zone` read `hour`:00. A day whose
 * `hour` is skipped by a change of offset uses the moment the change names (wallClockToUtc).
 */
export function latestDigestSlot(now: number, zone: string, hour: number): number {
  const wall = utcToWallClock(now, zone);
  const today = Math.floor(wall / DAY_MS) * DAY_MS + hour * HOUR_MS;
  const slot = wallClockToUtc(today, zone);
  return slot <= now ? slot : wallClockToUtc(today - DAY_MS, zone);
}

/** The digest moment one local day before `slot` (23 or 25 hours across a change of offset). */
export function previousDigestSlot(slot: number, zone: string): number {
  return wallClockToUtc(utcToWallClock(slot, zone) - DAY_MS, zone);
}
