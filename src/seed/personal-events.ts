// Personal events of a seed file (docs/operations.md "Seed files"): each user's own schedule,
// one-off, all-day or repeating, checked by the same rules as the API's writes.
import { z } from "zod";
import { DomainError } from "../domain/errors.js";
import { resolveEventDraft } from "../domain/event-draft.js";
import { requireEventZone } from "../domain/event-time.js";
import { formatPersonalEventId } from "../domain/item-id.js";
import { seriesEndBound } from "../domain/recurrence.js";
import type { Tx } from "../store/store.js";

/** One event of the seed's `personalEvents`: a group event's fields less the group's (menu, participants, facilities). */
export const seedPersonalEvent = z.strictObject({
  ref: z.string().min(1, "must not be empty"),
  owner: z.string().min(1, "must not be empty"),
  title: z.string().trim().min(1, "must not be empty"),
  summary: z.string().default(""),
  /** UTC date-times, or plain dates (end inclusive or exclusive) for an all-day event. */
  start: z.string().trim().min(1, "must not be empty"),
  end: z.string().trim().min(1, "must not be empty"),
  allDay: z.boolean().default(false),
  timeZone: z.string().optional(),
  rule: z.string().optional(),
});

type SeedPersonalEvent = z.infer<typeof seedPersonalEvent>;

/** The event as a checked draft. @throws DomainError (the API's event errors) */
function draftOf(event: SeedPersonalEvent) {
  return resolveEventDraft(
    {
      title: event.title,
      memo: event.summary,
      when: { startTime: event.start, endTime: event.end },
      allDay: event.allDay,
      timeZone: event.timeZone,
      rule: event.rule,
      menuId: null,
      participantIds: [],
      facilityIds: [],
      exceptions: [],
      occurrences: [],
    },
    requireEventZone(event.timeZone ?? "UTC"),
  );
}

/** What is wrong with the events' owners, refs and fields (each with its path); [] when nothing. */
export function personalEventProblems(events: readonly SeedPersonalEvent[], users: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const refs = new Set<string>();
  for (const [i, event] of events.entries()) {
    const at = `personalEvents[${i}]`;
    if (refs.has(event.ref)) problems.push(`${at}.ref: "${event.ref}" is used twice`);
    refs.add(event.ref);
    if (!users.has(event.owner)) problems.push(`${at}.owner: no user with ref "${event.owner}"`);
    try {
      draftOf(event);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(`${at}: ${error.message}`);
    }
  }
  return problems;
}

/** Writes the events; each one's id by ref. Nobody is notified of a personal event. */
export async function loadPersonalEvents(
  tx: Tx,
  events: readonly SeedPersonalEvent[],
  userIds: ReadonlyMap<string, number>,
  now: number,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const event of events) {
    const draft = draftOf(event);
    const ownerId = userIds.get(event.owner) ?? 0;
    const id = await tx.personalEvents.insert({ ...draft, seriesEnd: seriesEndBound(draft) ?? null, at: now, ownerId });
    ids[event.ref] = formatPersonalEventId({ ownerId, id });
  }
  return ids;
}
