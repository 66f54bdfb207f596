// The chat rooms of an import: each room's messages checked by the rules of any chat message, with
// keys derived from what the file says of them (it has no IDs), merged by the room's title.
import { createHash } from "node:crypto";
import type { ChatRoomRecord } from "../../domain/cybozulive/chat-text.js";
import { toUtc } from "../../domain/cybozulive/dates.js";
import { checkChatMessage, checkMemberCount, checkRoomTitle } from "../../domain/chat.js";
import { type PlanContext, at, checked, withNote } from "./cybozulive-plan-rules.js";

/** A chat message to write; `key` is derived from its number, time, author and text (the file has no ID). */
export interface PlannedMessage {
  readonly key: string;
  readonly author: string;
  readonly body: string;
  readonly at: number;
}

/**
 * A chat room to write: its key is derived from its title, so that a later export of the same room
 * adds only its new messages. The messages are oldest first; the first one's author creates it.
 */
export interface PlannedChatRoom {
  readonly key: string;
  readonly title: string;
  readonly messages: readonly PlannedMessage[];
}

/** Hashed, to keep keys short whatever the text. */
function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/** Said as a room's first message: Kairan's rooms have no description, the original's did. */
export const ROOM_DESCRIPTION_LABEL = "説明 (Description):";

/** A room as read so far: its first file's record, its description and its messages by key. */
interface RoomDraft {
  readonly key: string;
  readonly title: string;
  readonly record: ChatRoomRecord;
  description: string;
  readonly messages: Map<string, PlannedMessage & { readonly number: number }>;
}

/**
 * Rooms of one title are one room (a room given twice, or exported again later): their messages
 * are merged, each once, oldest first. A room without messages is skipped: it has no one to own it.
 */
export function planChatRooms(records: readonly ChatRoomRecord[], context: PlanContext): PlannedChatRoom[] {
  const rooms = new Map<string, RoomDraft>();
  for (const record of records) {
    const title = checked(record, () => checkRoomTitle(record.title));
    const key = `cybozulive:chat:${digest(title)}`;
    const room = rooms.get(key) ?? { key, title, record, description: "", messages: new Map() };
    rooms.set(key, room);
    if (room.description === "") room.description = record.description.trim() === "" ? "" : record.description;
    let repeated = 0;
    for (const post of record.posts) {
      const author = context.person(post.author, post);
      const body = checked(post, () => checkChatMessage(withNote(post.body, post, context), 0));
      const messageKey = `${key}#${digest(JSON.stringify([post.number, post.wall, author, post.body]))}`;
      if (room.messages.has(messageKey)) repeated++;
      else
        room.messages.set(messageKey, {
          key: messageKey,
          author,
          body,
          at: toUtc(post.wall, context.zone),
          number: post.number,
        });
    }
    if (repeated > 0)
      context.problems.push({
        ...at(record),
        kind: "DUPLICATE_ROW",
        message: `${repeated} messages of the room "${title.slice(0, 60)}" were read already; skipped`,
      });
  }
  return [...rooms.values()].flatMap((room) => planRoom(room, context));
}

function planRoom(room: RoomDraft, context: PlanContext): PlannedChatRoom[] {
  const messages = [...room.messages.values()].sort((a, b) => a.at - b.at || a.number - b.number);
  const [oldest] = messages;
  if (oldest === undefined) {
    const message = `the room "${room.title.slice(0, 60)}" has no messages; skipped`;
    context.problems.push({ ...at(room.record), kind: "EMPTY_CHAT_ROOM", message });
    return [];
  }
  // Every author is a member: more than a room holds is an error of its first file.
  checked(room.record, () => checkMemberCount(new Set(messages.map((message) => message.author)).size));
  const plain = messages.map(({ key, author, body, at }) => ({ key, author, body, at }));
  if (room.description === "") return [{ key: room.key, title: room.title, messages: plain }];
  const text = `${ROOM_DESCRIPTION_LABEL}\n${room.description}`;
  // The description opens the room, as written by its first author at the first message's time.
  const description = {
    key: `${room.key}#description`,
    author: oldest.author,
    at: oldest.at,
    body: checked(room.record, () => checkChatMessage(text, 0)),
  };
  return [{ key: room.key, title: room.title, messages: [description, ...plain] }];
}
