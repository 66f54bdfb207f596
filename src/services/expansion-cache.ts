// Expansions of repeating events kept in memory between requests. Expanding a series with rrule
// costs tens of microseconds, and a group's event list expands every series that can reach the
// window on every request: 400 series of a 2,000-event group made rrule about 40% of the list's
// time. Readers of a group mostly ask for the same windows (this month, this week), and the feed
// cache does not help them: it keeps one feed per caller and drops it at any write to the group.
//
// The key is every input of `expandEvent` itself (timing, rule, exceptions, window, limit), not an
// event id and a version: an entry can never describe another state of the event, whoever changed
// it and however (a write, a `kairan` command, an operator's SQL), so nothing needs invalidating.
import type { EventException } from "../domain/event.js";
import type { Window } from "../domain/event-time.js";
import { LIMITS } from "../domain/limits.js";
import { type Expansion, expandEvent } from "../domain/recurrence.js";

/** What `expandEvent` reads of an event. */
export type ExpansionInput = Parameters<typeof expandEvent>[0];

/**
 * A bounded map of expansions by their inputs. It holds at most `capacity` occurrences (about 24
 * bytes each with their object; the default 200,000 is about 5 MB); the oldest entries go first.
 * Reads do not reorder entries: moving an entry to the back on every hit leaves garbage for the
 * young generation (the feed cache measured it), and a month's entries are all read together.
 */
export class ExpansionCache {
  private readonly entries = new Map<string, Expansion>();
  private held = 0;
  /** Expansions answered from memory, and computed, since the start (tests read them). */
  hits = 0;
  misses = 0;

  constructor(readonly capacity: number = 200_000) {}

  /** `expandEvent(event, window, limit)`, from memory when the same inputs were expanded before. */
  expand(event: ExpansionInput, window: Window, limit: number = LIMITS.occurrencesPerEntry): Expansion {
    // A one-off event is cheaper to place than to look up.
    if (event.rule === null) return expandEvent(event, window, limit);
    const key = keyOf(event, window, limit);
    const kept = this.entries.get(key);
    if (kept !== undefined) {
      this.hits++;
      return kept;
    }
    this.misses++;
    // Frozen: every later caller gets these very objects (and present/event.ts keeps their text).
    const expansion = freeze(expandEvent(event, window, limit));
    this.keep(key, expansion);
    return expansion;
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  private keep(key: string, expansion: Expansion): void {
    // Counted as at least one: an empty expansion still costs its key and slot.
    const cost = Math.max(1, expansion.occurrences.length);
    if (cost > this.capacity) return;
    this.entries.set(key, expansion);
    this.held += cost;
    for (const [oldest, value] of this.entries) {
      if (this.held <= this.capacity) break;
      this.entries.delete(oldest);
      this.held -= Math.max(1, value.occurrences.length);
    }
  }
}

function freeze(expansion: Expansion): Expansion {
  for (const occurrence of expansion.occurrences) Object.freeze(occurrence);
  Object.freeze(expansion.occurrences);
  return Object.freeze(expansion);
}

/** Every input of the expansion, joined without ambiguity (a zone name and a rule hold no `|`). */
function keyOf(event: ExpansionInput, window: Window, limit: number): string {
  return `${event.rule}|${event.start}|${event.end}|${event.allDay ? 1 : 0}|${event.timeZone}|${window.start}|${window.end}|${limit}|${exceptionsKey(event.exceptions)}`;
}

function exceptionsKey(exceptions: readonly EventException[]): string {
  let key = "";
  for (const exception of exceptions)
    key += exception.cancelled
      ? `${exception.originalStart}x,`
      : `${exception.originalStart}>${exception.start}-${exception.end},`;
  return key;
}

/** The process's cache, shared by every request. */
export const expansions = new ExpansionCache();
