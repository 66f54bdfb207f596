/**
 * The only code that knows the identifier grammar of the interface:
 * `GROUP,1:12`, `GROUP,1:12,BOARD,1:345`, `GROUP,1:12,BOARD,1:345,COMMENT,3`, `GROUP,1:12,TASK,1:3`,
 * `GROUP,1:12,CABINET,1:4`, `GROUP,1:12,GW_SCHEDULE,1:5` (an event). Numbers are `1:<n>` pairs; comment parts are plain numbers.
 * A comment's attachment (our own id, read only by `/api/fileDownload/V2`) is the comment id
 * followed by `ATTACHMENT,<n>`, n counting the comment's files from 1 in upload order:
 * `GROUP,1:12,BOARD,1:345,COMMENT,3,ATTACHMENT,1`.
 * Elsewhere the code holds plain numeric ids and asks this module for the wire form.
 */

import { type ContentKind, isContentKind } from "./kinds.js";

export type { ContentKind } from "./kinds.js";

/** A topic, task, file or event of a group. */
export interface ContentRef {
  readonly kind: ContentKind;
  readonly groupId: number;
  readonly id: number;
}

/** Whether a parsed id names group content (a topic, task, file or event). */
export function isContentRef(ref: ItemRef): ref is ContentRef {
  return isContentKind(ref.kind);
}

/** A parsed item identifier. `foreign` is a well-formed id of a kind this server does not hold. */
export type ItemRef =
  | { readonly kind: "GROUP"; readonly groupId: number }
  | ContentRef
  | { readonly kind: "COMMENT"; readonly parent: ContentRef; readonly number: number }
  | { readonly kind: "foreign"; readonly segments: readonly string[] };

const PAIR = /^1:([1-9][0-9]{0,14})$/;
const PLAIN = /^[1-9][0-9]{0,14}$/;
const FOREIGN_KINDS: ReadonlySet<string> = new Set(["MYPAGE", "MESSAGE", "MP_SCHEDULE", "MP_CHAT"]);
const PAIR_SHAPE = /^[0-9]+:[0-9]+$/;

/** `12` -> `1:12`. */
export function formatPair(id: number): string {
  return `1:${id}`;
}

/** `1:12` -> 12; anything else (other shard, zero, junk) -> undefined. */
export function parsePair(text: string): number | undefined {
  const match = PAIR.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

/** The `group` query parameter: the bare pair `1:12`, or `GROUP,1:12`. */
export function parseGroupParameter(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed.startsWith("GROUP,")) {
    const ref = parseItemId(trimmed);
    return ref?.kind === "GROUP" ? ref.groupId : undefined;
  }
  return parsePair(trimmed);
}

/**
 * A `group` value shaped like a group id (`n:m` or `GROUP,n:m`) that {@link parseGroupParameter}
 * refuses: another shard's, `1:0`, too long. It names no group here, which is not a format error.
 */
export function isGroupIdShape(text: string): boolean {
  const trimmed = text.trim();
  return PAIR_SHAPE.test(trimmed.startsWith("GROUP,") ? trimmed.slice("GROUP,".length) : trimmed);
}

/** `GROUP,1:12`. */
export function formatGroupId(groupId: number): string {
  return `GROUP,${formatPair(groupId)}`;
}

/** `GROUP,1:12,BOARD,1:345` and the like. */
export function formatContentId(ref: ContentRef): string {
  return `${formatGroupId(ref.groupId)},${ref.kind},${formatPair(ref.id)}`;
}

/** `<parent id>,COMMENT,3`. */
export function formatCommentId(parent: ContentRef, number: number): string {
  return `${formatContentId(parent)},COMMENT,${number}`;
}

/** Parses an item identifier; undefined when it is not of the grammar at all. */
export function parseItemId(text: string): ItemRef | undefined {
  const segments = text.trim().split(",");
  if (segments[0] !== "GROUP") return parseForeign(segments);
  const groupId = parsePair(segments[1] ?? "");
  if (groupId === undefined) return undefined;
  if (segments.length === 2) return { kind: "GROUP", groupId };
  const kind = segments[2] ?? "";
  if (!isContentKind(kind)) return parseForeign(segments);
  const id = parsePair(segments[3] ?? "");
  if (id === undefined) return undefined;
  const content: ContentRef = { kind, groupId, id };
  if (segments.length === 4) return content;
  if (segments.length === 6 && segments[4] === "COMMENT" && PLAIN.test(segments[5] ?? "")) {
    return { kind: "COMMENT", parent: content, number: Number(segments[5]) };
  }
  return undefined;
}

/** Ids of the original service's other areas (personal pages, schedules): valid, never ours. */
function parseForeign(segments: readonly string[]): ItemRef | undefined {
  if (segments.length < 2 || segments.length % 2 !== 0) return undefined;
  for (let i = 0; i < segments.length; i += 2) {
    const kind = segments[i] ?? "";
    if (!(FOREIGN_KINDS.has(kind) || kind === "GROUP" || isContentKind(kind))) return undefined;
    if (!PAIR_SHAPE.test(segments[i + 1] ?? "")) return undefined;
  }
  return { kind: "foreign", segments };
}

/** One file attached to a comment. */
export interface AttachmentRef {
  readonly kind: "ATTACHMENT";
  readonly parent: ContentRef;
  readonly commentNumber: number;
  readonly position: number;
}

/** `<comment id>,ATTACHMENT,<n>`. */
export function formatAttachmentId(parent: ContentRef, commentNumber: number, position: number): string {
  return `${formatCommentId(parent, commentNumber)},ATTACHMENT,${position}`;
}

/** Parses an attachment id; undefined for anything else (other ids go through {@link parseItemId}). */
export function parseAttachmentId(text: string): AttachmentRef | undefined {
  const segments = text.trim().split(",");
  if (segments.length !== 8 || segments[6] !== "ATTACHMENT" || !PLAIN.test(segments[7] ?? "")) return undefined;
  const comment = parseItemId(segments.slice(0, 6).join(","));
  if (comment?.kind !== "COMMENT") return undefined;
  return { kind: "ATTACHMENT", parent: comment.parent, commentNumber: comment.number, position: Number(segments[7]) };
}

/** A chat room (`MYPAGE,1:<user>,MP_CHAT,1:n`) or one of its messages (`...,COMMENT,m`). */
export interface ChatRef {
  readonly roomId: number;
  /** The message number; undefined for the room itself. */
  readonly messageNumber: number | undefined;
}

const CHAT_ID = /^MYPAGE,[0-9]+:[0-9]+,MP_CHAT,1:([1-9][0-9]{0,14})(?:,COMMENT,([1-9][0-9]{0,14}))?$/;

/** A chat room or message id written from anyone's side (membership, not the id, decides access). */
export function parseChatId(text: string): ChatRef | undefined {
  const match = CHAT_ID.exec(text.trim());
  if (match === null) return undefined;
  return { roomId: Number(match[1]), messageNumber: match[2] === undefined ? undefined : Number(match[2]) };
}

/** `MYPAGE,1:<viewer>,MP_CHAT,1:n`: a room written from the viewer's side. */
export function formatChatRoomId(viewerId: number, roomId: number): string {
  return `MYPAGE,${formatPair(viewerId)},MP_CHAT,${formatPair(roomId)}`;
}

/** `MYPAGE,1:<viewer>,MP_CHAT,1:n,COMMENT,m`: a message written from the viewer's side. */
export function formatChatMessageId(viewerId: number, roomId: number, number: number): string {
  return `${formatChatRoomId(viewerId, roomId)},COMMENT,${number}`;
}

/** A file of a chat message: `<message id>,ATTACHMENT,<n>`. */
export interface ChatAttachmentRef {
  readonly kind: "CHAT_ATTACHMENT";
  readonly roomId: number;
  readonly messageNumber: number;
  readonly position: number;
}

/** `<message id from the viewer's side>,ATTACHMENT,<n>`. */
export function formatChatAttachmentId(viewerId: number, roomId: number, number: number, position: number): string {
  return `${formatChatMessageId(viewerId, roomId, number)},ATTACHMENT,${position}`;
}

/** Parses a chat attachment id from anyone's side; undefined for anything else. */
export function parseChatAttachmentId(text: string): ChatAttachmentRef | undefined {
  const segments = text.trim().split(",");
  if (segments.length !== 8 || segments[6] !== "ATTACHMENT" || !PLAIN.test(segments[7] ?? "")) return undefined;
  const message = parseChatId(segments.slice(0, 6).join(","));
  if (message?.messageNumber === undefined) return undefined;
  return {
    kind: "CHAT_ATTACHMENT",
    roomId: message.roomId,
    messageNumber: message.messageNumber,
    position: Number(segments[7]),
  };
}

/** A personal event (`MYPAGE,1:<owner>,MP_SCHEDULE,1:n`): the owner is part of its id. */
export interface PersonalEventRef {
  readonly kind: "MP_SCHEDULE";
  readonly ownerId: number;
  readonly id: number;
}

/** `MYPAGE,1:<owner>,TASK,1:n`: a personal task (docs/api.md "Personal ToDo"). */
export interface PersonalTaskRef {
  readonly ownerId: number;
  readonly id: number;
}

const PERSONAL_EVENT_ID = /^MYPAGE,1:([1-9][0-9]{0,14}),MP_SCHEDULE,1:([1-9][0-9]{0,14})$/;

/** Parses a personal event id; undefined for anything else (a comment of one included). */
export function parsePersonalEventId(text: string): PersonalEventRef | undefined {
  const match = PERSONAL_EVENT_ID.exec(text.trim());
  return match === null ? undefined : { kind: "MP_SCHEDULE", ownerId: Number(match[1]), id: Number(match[2]) };
}

/** `MYPAGE,1:<owner>,MP_SCHEDULE,1:n`. */
export function formatPersonalEventId(ref: Pick<PersonalEventRef, "ownerId" | "id">): string {
  return `MYPAGE,${formatPair(ref.ownerId)},MP_SCHEDULE,${formatPair(ref.id)}`;
}

const PERSONAL_TASK_ID = /^MYPAGE,1:([1-9][0-9]{0,14}),TASK,1:([1-9][0-9]{0,14})$/;

/** `MYPAGE,1:<owner>,TASK,1:n`. */
export function formatPersonalTaskId(ref: PersonalTaskRef): string {
  return `MYPAGE,${formatPair(ref.ownerId)},TASK,${formatPair(ref.id)}`;
}

/** A personal task id; undefined for anything else (comments on it included: it has none). */
export function parsePersonalTaskId(text: string): PersonalTaskRef | undefined {
  const match = PERSONAL_TASK_ID.exec(text.trim());
  return match === null ? undefined : { ownerId: Number(match[1]), id: Number(match[2]) };
}
