// Search hits beyond a group's content (issue 31): group events, the reader's personal events,
// messages of the reader's chat rooms and the reader's groups, each loaded as its page shows it.
// The store query already kept each kind to what the reader may see; the loads here check again.
import type { Actor } from "../../domain/access.js";
import type { ChatMessage } from "../../domain/chat.js";
import type { CalendarEvent, PersonalEvent } from "../../domain/event.js";
import type { Group } from "../../domain/group.js";
import { type ExcerptPart, type SearchQuery, excerptOf } from "../../domain/search.js";
import type { SearchHit } from "../../store/queries/search.js";
import type { Tx } from "../../store/store.js";
import { type EventEntry, wholeEntry } from "../event/event.js";

/** A found item of the other kinds: an event, a personal event, a chat message, a group. */
export type FoundOther = { readonly excerpt: readonly ExcerptPart[] } & (
  | { readonly kind: "G_SCHEDULE"; readonly group: Group; readonly entry: EventEntry<CalendarEvent> }
  | { readonly kind: "M_SCHEDULE"; readonly entry: EventEntry<PersonalEvent> }
  | { readonly kind: "M_CHAT"; readonly message: ChatMessage; readonly roomTitle: string }
  | { readonly kind: "GROUP"; readonly group: Group }
);

const idsOf = (hits: readonly SearchHit[], kind: SearchHit["kind"]) =>
  hits.filter((hit) => hit.kind === kind).map((hit) => hit.id);

/** The hits of the other kinds, loaded, by `KIND:id` (one deleted meanwhile is left out). */
export async function loadOthers(
  tx: Tx,
  actor: Actor,
  query: SearchQuery,
  hits: readonly SearchHit[],
  groups: ReadonlyMap<number, Group>,
): Promise<Map<string, FoundOther>> {
  const excerpt = (...texts: string[]) => excerptOf(texts.join("\n"), query.terms);
  const found = new Map<string, FoundOther>();
  for (const event of await tx.events.findByIds(idsOf(hits, "G_SCHEDULE"))) {
    const group = groups.get(event.groupId);
    if (group)
      found.set(`G_SCHEDULE:${event.id}`, {
        kind: "G_SCHEDULE",
        group,
        entry: wholeEntry(event),
        excerpt: excerpt(event.title, event.memo),
      });
  }
  for (const event of await tx.personalEvents.findByIds(idsOf(hits, "M_SCHEDULE"))) {
    if (event.ownerId === actor.user.id)
      found.set(`M_SCHEDULE:${event.id}`, {
        kind: "M_SCHEDULE",
        entry: wholeEntry(event),
        excerpt: excerpt(event.title, event.memo),
      });
  }
  for (const [id, message] of await chatMessagesOf(tx, actor.user.id, idsOf(hits, "M_CHAT")))
    found.set(`M_CHAT:${id}`, { kind: "M_CHAT", ...message, excerpt: excerpt(message.message.body) });
  for (const id of idsOf(hits, "GROUP")) {
    const group = groups.get(id);
    if (group) found.set(`GROUP:${id}`, { kind: "GROUP", group, excerpt: excerpt(group.name, group.summary) });
  }
  return found;
}

/** Found messages of rooms the reader is in, with each room's title as the reader sees it, by message id. */
async function chatMessagesOf(
  tx: Tx,
  viewerId: number,
  messageIds: readonly number[],
): Promise<Map<number, { message: ChatMessage; roomTitle: string }>> {
  const places = await tx.search.chatPlaces(messageIds);
  const roomIds = [...new Set(places.map((place) => place.roomId))];
  const rooms = new Map((await tx.chat.roomsByIds(viewerId, roomIds)).map((room) => [room.id, room]));
  const members = await tx.chat.members([...rooms.keys()]);
  const found = new Map<number, { message: ChatMessage; roomTitle: string }>();
  for (const place of places) {
    const room = rooms.get(place.roomId);
    if (!room) continue;
    const message = await tx.chat.message(place.roomId, place.number);
    // A DIRECT room is named after the other person, as the room list names it.
    const other = (members.get(room.id) ?? []).find((member) => member.userId !== viewerId);
    const roomTitle = room.type === "THEME" ? room.title : (other?.name ?? room.title);
    if (message) found.set(place.id, { message, roomTitle });
  }
  return found;
}
