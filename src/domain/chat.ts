import { NotFoundError, ValidationError } from "./errors.js";
import { CHAT_LIMITS } from "./limits.js";
import type { LikeSummary } from "./reaction.js";
import { checkMaxChars, checkNameCharacters } from "./text.js";

/** The two kinds of room. */
export type ChatRoomType = "THEME" | "DIRECT";

/** A room as its member sees it. */
export interface ChatRoom {
  readonly id: number;
  readonly type: ChatRoomType;
  /** THEME: the room's title; DIRECT: the stored title is empty (the other person's name is shown). */
  readonly title: string;
  readonly creatorId: number;
  readonly creatorName: string;
  readonly createdAt: number;
  readonly activityAt: number;
}

/** A room member, with their own setting. */
export interface ChatMember {
  readonly userId: number;
  readonly name: string;
  readonly muted: boolean;
  readonly unconfirmed: number;
}

/** A message of a room. */
export interface ChatMessage {
  readonly roomId: number;
  readonly number: number;
  readonly authorId: number;
  readonly authorName: string;
  readonly body: string;
  readonly createdAt: number;
  /** When its author last changed its text (migration 0050); null when never. */
  readonly editedAt: number | null;
  /** Its files, where the reader loaded them (the push answer, the message list). */
  readonly attachments?: readonly ChatAttachment[];
  /** Its likes as the reader sees them, where the reader loaded them. */
  readonly likes?: LikeSummary;
}

/** A file of a chat message; `position` counts the message's files from 1 in upload order. */
export interface ChatAttachment {
  readonly roomId: number;
  readonly messageNumber: number;
  readonly position: number;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly blobKey: string;
}

/** The unique key of a DIRECT room of two users: the same whoever opens it. */
export function directKey(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * Checks a message's text; empty text is allowed only with a file.
 * @throws ValidationError CHAT_MESSAGE_MISSING, CHAT_MESSAGE_TOO_LONG
 */
export function checkChatMessage(text: string | undefined, fileCount: number): string {
  const body = text ?? "";
  if (body.trim() === "" && fileCount === 0)
    throw new ValidationError("CHAT_MESSAGE_MISSING", "The message (entry/summary) is missing or empty.");
  checkMaxChars(body, CHAT_LIMITS.messageMaxChars, "CHAT_MESSAGE_TOO_LONG", "The message (entry/summary)");
  return body;
}

/**
 * Checks a THEME room's title.
 * @throws ValidationError CHAT_ROOM_TITLE_REQUIRED, CHAT_ROOM_TITLE_TOO_LONG, CHAT_ROOM_TITLE_INVALID
 */
export function checkRoomTitle(title: string | undefined): string {
  const text = (title ?? "").trim();
  if (text === "") throw new ValidationError("CHAT_ROOM_TITLE_REQUIRED", "A THEME room needs a title.");
  checkMaxChars(text, CHAT_LIMITS.roomTitleMaxChars, "CHAT_ROOM_TITLE_TOO_LONG", "The room title");
  checkNameCharacters(text, "CHAT_ROOM_TITLE_INVALID", "The room title");
  return text;
}

/** @throws ValidationError CHAT_TOO_MANY_MEMBERS beyond the THEME room limit */
export function checkMemberCount(count: number): void {
  if (count > CHAT_LIMITS.themeRoomMaxMembers)
    throw new ValidationError(
      "CHAT_TOO_MANY_MEMBERS",
      `A THEME room has at most ${CHAT_LIMITS.themeRoomMaxMembers} members.`,
    );
}

/** The one answer for a room the caller cannot see: it might as well not exist. */
export function roomNotFound(): NotFoundError {
  return new NotFoundError("NOT_FOUND", "There is no such chat room among yours.");
}
