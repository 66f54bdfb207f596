// Chat rooms of a seed file (docs/operations.md "Seed files"): THEME rooms and DIRECT
// conversations with their members, mutes and messages, written from the creator's side.
import { z } from "zod";
import { checkChatMessage, checkRoomTitle, directKey } from "../domain/chat.js";
import { DomainError } from "../domain/errors.js";
import { formatChatRoomId } from "../domain/item-id.js";
import type { Tx } from "../store/store.js";

/** One room of the seed's `chatRooms`. */
export const seedChatRoom = z.strictObject({
  ref: z.string().min(1, "must not be empty"),
  type: z.enum(["THEME", "DIRECT"]),
  title: z.string().default(""),
  /** The creator (default: the first member). */
  creator: z.string().optional(),
  members: z.array(z.string()).min(2, "a room needs at least two members"),
  muted: z.array(z.string()).default([]),
  messages: z.array(z.strictObject({ author: z.string(), text: z.string() })).default([]),
});

type SeedChatRoom = z.infer<typeof seedChatRoom>;

/** What is wrong with the rooms' references and texts (each with its path); [] when nothing. */
export function chatRoomProblems(rooms: readonly SeedChatRoom[], users: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const check = (test: () => void, path: string) => {
    try {
      test();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(`${path}: ${error.message}`);
    }
  };
  for (const [i, room] of rooms.entries()) {
    const at = `chatRooms[${i}]`;
    const members = new Set(room.members);
    for (const [j, member] of room.members.entries())
      if (!users.has(member)) problems.push(`${at}.members[${j}]: no user with ref "${member}"`);
    if (room.creator !== undefined && !members.has(room.creator))
      problems.push(`${at}.creator: "${room.creator}" is not one of its members`);
    if (room.type === "DIRECT" && members.size !== 2)
      problems.push(`${at}.members: a DIRECT room joins exactly two users`);
    if (room.type === "THEME") check(() => checkRoomTitle(room.title), `${at}.title`);
    for (const [j, muted] of room.muted.entries())
      if (!members.has(muted)) problems.push(`${at}.muted[${j}]: "${muted}" is not one of its members`);
    for (const [j, message] of room.messages.entries()) {
      if (!members.has(message.author))
        problems.push(`${at}.messages[${j}].author: "${message.author}" is not one of its members`);
      check(() => checkChatMessage(message.text, 0), `${at}.messages[${j}].text`);
    }
  }
  return problems;
}

/** Writes the rooms; each room's id from its creator's side, by ref. */
export async function loadChatRooms(
  tx: Tx,
  rooms: readonly SeedChatRoom[],
  userIds: ReadonlyMap<string, number>,
  now: number,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const id = (ref: string) => userIds.get(ref) ?? 0;
  for (const room of rooms) {
    const creatorId = id(room.creator ?? room.members[0] ?? "");
    const memberIds = [...new Set(room.members.map(id))];
    const key = room.type === "DIRECT" ? directKey(memberIds[0] ?? 0, memberIds[1] ?? 0) : null;
    const title = room.type === "THEME" ? checkRoomTitle(room.title) : "";
    const roomId = await tx.chat.createRoom({ type: room.type, title, creatorId, directKey: key, at: now });
    await tx.chat.addMembers(roomId, memberIds, now);
    for (const muted of room.muted) await tx.chat.setMuted(roomId, id(muted), true);
    for (const message of room.messages) await tx.chat.push(roomId, id(message.author), message.text, now);
    out[room.ref] = formatChatRoomId(creatorId, roomId);
  }
  return out;
}
