import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { type ChatMemberRepo, chatMemberRepo } from "./chat-members.js";
import { type ChatMessageRepo, chatMessageRepo } from "./chat-messages.js";
import { type ChatRoomRepo, chatRoomRepo } from "./chat-rooms.js";

export type { MemberRoom, RoomDraft, RoomFilter } from "./chat-rooms.js";

/** Chat (migration 0017): rooms, their members and their messages, one repository to the services. */
export type ChatRepo = ChatRoomRepo & ChatMemberRepo & ChatMessageRepo;

/** The chat repository over a connection or transaction. */
export function chatRepo(db: Kysely<Database>): ChatRepo {
  return { ...chatRoomRepo(db), ...chatMemberRepo(db), ...chatMessageRepo(db) };
}
