// Expansions of repeating events kept in memory between requests. Expanding a series with rrule
// costs tens of microseconds, and a group's event list expands every series that can reach the
// window on every request: the 180 series of a 2,000-event group that reach a month made rrule
// about 40% of the list's time. Readers of a group mostly ask for the same windows (this month,
// this week), and the feed cache does not help them: it keeps one feed per caller and drops it
// at any write to the group.
//
// The key is every input of `expandEvent` itself (timing, rule, exceptions, window, limit), not an
// event id and a version: an entry can never describe another state of the event, whoever changed
// it and however (a write, a `kairan` command, an operator's SQL), so nothing needs invalidating.
import type { EventException } from "../../domain/event.js";
import type { Window } from "../../domain/event-time.js";
import { LIMITS } from "../../domain/limits.js";
import { type Expansion, expandEvent } from "../../domain/recurrence.js";

/** What `expandEvent` reads of an event. */
export type ExpansionInput = Parameters<typeof expandEvent>[0];

/**
 * A bounded map of expansions by their inputs, holding at most about `capacityBytes` (default 8 MB)
 * of keys, occurrences and entries; the oldest entries go first. A first occurrence (limit 1) is
 * one occurrence under a key of about 100 bytes: counting occurrences alone would let 200,000 of
 * them hold 30 MB of keys. Reads do not reorder entries: moving an entry to the back on every hit
 * leaves garbage for the young generation (the feed cache measured it), and a month's entries are
 * all read together.
 */
export class ExpansionCache {
  private readonly entries = new Map<string, Expansion>();
  private held = 0;
  /** Expansions answered from memory, and computed, since the start (tests read them). */
  hits = 0;
  misses = 0;

  constructor(readonly capacityBytes: number = 8 * 1024 * 1024) {}

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

  /** The estimated bytes held now. */
  get bytes(): number {
    return this.held;
  }

  private keep(key: string, expansion: Expansion): void {
    const cost = costOf(key, expansion);
    if (cost > this.capacityBytes) return;
    this.entries.set(key, expansion);
    this.held += cost;
    for (const [oldest, value] of this.entries) {
      if (this.held <= this.capacityBytes) break;
      this.entries.delete(oldest);
      this.held -= costOf(oldest, value);
    }
  }
}

// V8's sizes, roughly: a one-byte string's characters plus its header; an occurrence object with
// its slot in the array; the Map slot, the expansion object and its array.
const STRING_HEADER_BYTES = 16;
const OCCURRENCE_BYTES = 48;
const ENTRY_BYTES = 120;

/** What an entry costs: its key (keys are ASCII), its occurrences, its objects. */
function costOf(key: string, expansion: Expansion): number {
  return STRING_HEADER_BYTES + key.length + OCCURRENCE_BYTES * expansion.occurrences.length + ENTRY_BYTES;
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
