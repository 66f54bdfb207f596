// The events part of a seed (docs/operations.md "Seed files"): a group's event menus, facilities
// and events, one-off, all-day or repeating, checked by the same rules as the API's writes.
import type { EventInput } from "../domain/event-draft.js";
import { resolveEventDraft } from "../domain/event-draft.js";
import { requireEventZone } from "../domain/event-time.js";
import { formatContentId, formatPair } from "../domain/item-id.js";
import { seriesEndBound } from "../domain/recurrence.js";
import type { Tx } from "../store/store.js";
import type { Seed } from "./schema.js";

type GroupSeed = Seed["groups"][number];
type EventSeed = GroupSeed["events"][number];

/** What the events part of a seed adds to the printed result. */
export interface EventsResult {
  events: Record<string, string>;
  folders: Record<string, string>;
}

/** An event of the seed as a write would give it. */
export function draftInput(
  event: EventSeed,
  participantIds: readonly number[],
  facilityIds: readonly number[],
  menuId: number | null,
): EventInput {
  return {
    title: event.title,
    memo: event.summary,
    when: { startTime: event.start, endTime: event.end },
    allDay: event.allDay,
    timeZone: event.timeZone,
    rule: event.rule,
    menuId,
    participantIds,
    facilityIds,
    exceptions: [],
    occurrences: [],
  };
}

/** Loads one group's event menus, facilities and events; participants are notified as through the API. */
export async function loadEvents(
  tx: Tx,
  input: { groupId: number; seed: GroupSeed; userIds: ReadonlyMap<string, number>; now: number },
  result: EventsResult,
): Promise<void> {
  const { groupId, seed, userIds, now } = input;
  const menus = new Map<string, number>();
  for (const menu of seed.eventMenus) {
    const created = await tx.events.insertNamed("event_menus", groupId, menu.name, now);
    menus.set(menu.ref, created.id);
    result.folders[menu.ref] = formatPair(created.id);
  }
  const facilities = new Map<string, number>();
  for (const facility of seed.facilities)
    facilities.set(facility.ref, (await tx.events.insertNamed("facilities", groupId, facility.name, now)).id);
  for (const event of seed.events) {
    const participantIds = event.participants.map((ref) => userIds.get(ref) ?? 0);
    const facilityIds = event.facilities.map((ref) => facilities.get(ref) ?? 0);
    const menuId = event.menu === undefined ? null : (menus.get(event.menu) ?? null);
    const draft = resolveEventDraft(
      draftInput(event, participantIds, facilityIds, menuId),
      requireEventZone(event.timeZone ?? "UTC"),
    );
    const creatorId = userIds.get(event.creator) ?? 0;
    const fields = { ...draft, seriesEnd: seriesEndBound(draft) ?? null, at: now };
    const id = await tx.events.insert({ ...fields, groupId, creatorId });
    const ref = { kind: "GW_SCHEDULE", groupId, id } as const;
    await tx.notifications.fanOut({ item: ref, actorId: creatorId, cause: { kind: "created" }, at: now });
    result.events[event.ref] = formatContentId(ref);
  }
}
