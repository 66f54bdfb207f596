// Table shapes of chat (migration 0017), part of `Database` (schema.ts).
import type { Generated } from "kysely";

/** A THEME or DIRECT room. */
export interface ChatRoomsTable {
  id: Generated<number>;
  type: "THEME" | "DIRECT";
  title: string;
  creator_id: number;
  /** DIRECT rooms: "<smaller user id>:<larger>", unique; null for THEME rooms. */
  direct_key: string | null;
  /** The number of the room's latest message ever written (0: none yet). */
  last_number: Generated<number>;
  created_at: number;
  /** The latest message's time, else the creation time: the room list's order. */
  activity_at: number;
}

/** One row per (room, member): the member's mute and unconfirmed messages (their M_CHAT notification). */
export interface ChatMembersTable {
  room_id: number;
  user_id: number;
  muted: Generated<number>;
  unconfirmed: Generated<number>;
  joined_at: number;
}

/** A message, numbered per room. */
export interface ChatMessagesTable {
  id: Generated<number>;
  room_id: number;
  number: number;
  author_id: number;
  body: string;
  created_at: number;
  /** The last edit by its author (migration 0050); null when never edited. */
  edited_at: number | null;
}

/** A file of a chat message (migration 0022), numbered from 1 on its message; bytes in the blob store. */
export interface ChatAttachmentsTable {
  id: Generated<number>;
  room_id: number;
  message_number: number;
  position: number;
  file_name: string;
  content_type: string;
  size: number;
  blob_key: string;
  created_at: number;
}

/** A like of a chat message (migration 0027): one row per (message, user). */
export interface ChatLikesTable {
  room_id: number;
  message_number: number;
  user_id: number;
  created_at: number;
}

/** A message author's like notification of one message (migration 0027), as like_notifications. */
export interface ChatLikeNotificationsTable {
  id: Generated<number>;
  user_id: number;
  room_id: number;
  message_number: number;
  confirmed: Generated<number>;
  created_at: number;
  updated_at: number;
  confirmed_at: number | null;
}
