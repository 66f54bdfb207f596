// Wall clocks of IANA time zones, through Intl (no zone data of our own): what a UTC moment reads
// on a zone's clock, and which UTC moment a wall-clock time of a zone names.

/** Longer than any IANA zone name; refused before Intl is asked. */
const ZONE_MAX_CHARS = 64;

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    FORMATTERS.set(zone, formatter);
  }
  return formatter;
}

/** The zone's canonical name, or undefined when Intl does not know it. */
export function canonicalZone(zone: string): string | undefined {
  if (zone.length === 0 || zone.length > ZONE_MAX_CHARS) return undefined;
  try {
    return formatterOf(zone).resolvedOptions().timeZone;
  } catch {
    // Intl refuses a zone it does not know with a RangeError.
    return undefined;
  }
}

/** The offset as Intl computes it: exact, and slow (a formatToParts call, about 10 µs). */
function offsetFromIntl(zone: string, utcMs: number): number {
  const parts = formatterOf(zone).formatToParts(new Date(utcMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(utcMs / 1000) * 1000;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Offsets of a zone in force from each moment on, per UTC year: [from, offset] pairs by time. */
const YEAR_TABLES = new Map<string, readonly (readonly [number, number])[]>();

/**
 * The offsets a zone has during one UTC year: sampled daily, each change then found to the second
 * by bisection. About 400 Intl calls once per zone and year, instead of two per expanded
 * occurrence (a daily series over a year needed 2.7 ms per event; measured).
 */
function yearTable(zone: string, year: number): readonly (readonly [number, number])[] {
  const key = `${zone}|${year}`;
  const known = YEAR_TABLES.get(key);
  if (known !== undefined) return known;
  const start = Date.UTC(year, 0, 1);
  const end = Date.UTC(year + 1, 0, 1);
  const table: [number, number][] = [[start, offsetFromIntl(zone, start)]];
  for (let day = start + DAY_MS; day <= end; day += DAY_MS) {
    const offset = offsetFromIntl(zone, day);
    const last = table[table.length - 1] as [number, number];
    if (offset === last[1]) continue;
    let low = day - DAY_MS;
    let high = day;
    while (high - low > 1000) {
      const middle = Math.floor((low + high) / 2000) * 1000;
      if (offsetFromIntl(zone, middle) === last[1]) low = middle;
      else high = middle;
    }
    if (high < end) table.push([high, offsetFromIntl(zone, high)]);
  }
  YEAR_TABLES.set(key, table);
  return table;
}

/** How far the zone's wall clock is ahead of UTC at the moment `utcMs`. */
export function zoneOffsetMs(zone: string, utcMs: number): number {
  const table = yearTable(zone, new Date(utcMs).getUTCFullYear());
  let offset = (table[0] as readonly [number, number])[1];
  for (const [from, value] of table) {
    if (from > utcMs) break;
    offset = value;
  }
  return offset;
}

/** What the zone's wall clock reads at `utcMs`, as epoch ms of that reading taken as UTC. */
export function utcToWallClock(utcMs: number, zone: string): number {
  return utcMs + zoneOffsetMs(zone, utcMs);
}

/**
 * The UTC moment a wall-clock time of `zone` names. Two passes find the offset in force at that
 * moment across a change of offset; a time skipped by a change comes out shifted by its length.
 */
export function wallClockToUtc(wallMs: number, zone: string): number {
  const guess = wallMs - zoneOffsetMs(zone, wallMs);
  return wallMs - zoneOffsetMs(zone, guess);
}
