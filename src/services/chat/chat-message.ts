import { newBlobKey } from "../../blobs/blob-store.js";
import type { Actor } from "../../domain/access.js";
import { checkAttachments } from "../../domain/attachment.js";
import { type ChatMember, type ChatMessage, checkChatMessage, roomNotFound } from "../../domain/chat.js";
import { ForbiddenError, NotFoundError } from "../../domain/errors.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import type { MemberRoom } from "../../store/queries/chat.js";
import { type ChangeCursor, roomScopeOwner } from "../../domain/changes.js";
import { type ChangeFeed, type ChangesView, latestCursor, readMemberChanges } from "../item/changes.js";
import { requireRoom } from "./chat.js";
import { decorateMessages, storeMessageFiles } from "./chat-files.js";
import type { StagedFile } from "../comment/comment.js";
import { removeBlobs } from "../comment/comment-detail.js";
import type { ServiceContext } from "../context.js";
import { logDirectMessage } from "../mail-notify/log.js";
import { queueChatMessage } from "../webhook/enqueue.js";

/** A message just written or deleted, with its room as the writer sees it. */
export interface MessageView {
  readonly room: MemberRoom;
  /** The room's members: a DIRECT room's title is the other person's name. */
  readonly members: readonly ChatMember[];
  readonly message: ChatMessage;
}

/** A page of a room's messages (newest first) and whether more lie on either side. */
export interface MessagesView {
  readonly room: MemberRoom;
  readonly members: readonly ChatMember[];
  readonly messages: readonly ChatMessage[];
  readonly olderExists: boolean;
  readonly newerExists: boolean;
  /** Delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/** The change kind of a room's messages (migration 0059). */
const MESSAGE_CHANGE_KIND = "MP_CHAT_COMMENT";

/** A push (`POST /api/comet/mpChatPush/V2`): a new message, or deleting one's own. */
export type MessageWrite =
  | { readonly op: "add"; readonly roomId: number; readonly text: string | undefined }
  // `files` come from the multipart reader, never from the XML.
  | { readonly op: "delete"; readonly roomId: number; readonly number: number };

/**
 * Writes a message, with its files, into a room the caller is in; every other member who did not
 * mute the room gets one more unconfirmed message in their M_CHAT notification. Files move from
 * the temporary area into place only once the message row has committed.
 * @throws ValidationError CHAT_MESSAGE_MISSING, CHAT_MESSAGE_TOO_LONG, TOO_MANY_FILES; NotFoundError NOT_FOUND
 * @throws TooLargeError FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE
 */
export async function pushMessage(
  ctx: ServiceContext,
  actor: Actor,
  input: { roomId: number; text: string | undefined; files?: readonly StagedFile[] },
): Promise<MessageView> {
  const files = input.files ?? [];
  const body = checkChatMessage(input.text, files.length);
  checkAttachments(files.map((file) => file.draft));
  const keys = files.map(() => newBlobKey());
  const view = await ctx.store.transaction(async (tx): Promise<MessageView> => {
    const userId = actor.user.id;
    // Reads first: from the push to the commit the room's row stays locked and every other message
    // into the room waits for it (PostgreSQL), so only the writes that need the number follow it.
    const before = await requireRoom(tx, userId, input.roomId);
    const members = (await tx.chat.members([before.id])).get(before.id) ?? [];
    const at = ctx.clock.now();
    const number = await tx.chat.push(input.roomId, userId, body, at);
    const attachments = await storeMessageFiles(tx, { roomId: input.roomId, number, at }, files, keys);
    // In the same transaction: the streams learn of the message only once it is committed.
    await tx.liveEvents.append({ kind: "chat", roomId: input.roomId, messageNumber: number, at });
    await queueChatMessage(tx, input.roomId, number, userId, at);
    // A direct message still unread a few minutes later is mailed (services/mail-notify).
    if (before.type === "DIRECT") {
      const recipients = members.filter((member) => !member.muted).map((member) => member.userId);
      await logDirectMessage(tx, { roomId: input.roomId, number, recipients, actorId: userId, at });
    }
    const message = {
      roomId: input.roomId,
      number,
      authorId: userId,
      authorName: actor.user.name,
      body,
      createdAt: at,
      editedAt: null,
    };
    return { room: { ...before, lastNumber: number, activityAt: at }, members, message: { ...message, attachments } };
  });
  try {
    for (const [index, file] of files.entries()) await ctx.blobs.commit(file.temp, keys[index] ?? "");
  } catch (error) {
    // The bytes could not be put in place: take the message back rather than keep rows without files.
    await ctx.store.transaction(async (tx) => {
      await tx.chatAttachments.removeOf(input.roomId, view.message.number);
      await tx.chat.deleteMessage(input.roomId, view.message.number);
    });
    await removeBlobs(ctx.blobs, keys);
    throw error;
  }
  return view;
}

/**
 * Writes messages of the past into a room (an import), with their own authors and times, oldest
 * first: beside {@link pushMessage}, the other insert of messages. History tells no one: no unread
 * count, no live event, no mail. Their numbers.
 */
export async function insertMessages(
  tx: Tx,
  roomId: number,
  messages: readonly { authorId: number; body: string; at: number }[],
): Promise<number[]> {
  return tx.chat.insertMany(roomId, messages);
}

/**
 * Changes the text of one of the caller's own messages, in a room they are still in; its files,
 * likes and number stay, and nobody is notified (the room's pages show "edited").
 * @throws ValidationError CHAT_MESSAGE_MISSING, CHAT_MESSAGE_TOO_LONG
 * @throws NotFoundError NOT_FOUND, COMMENT_NOT_FOUND; ForbiddenError NOT_MESSAGE_AUTHOR
 */
export async function editMessage(
  ctx: ServiceContext,
  actor: Actor,
  input: { roomId: number; number: number; text: string | undefined },
): Promise<MessageView> {
  return ctx.store.transaction(async (tx) => {
    const userId = actor.user.id;
    const room = await requireRoom(tx, userId, input.roomId);
    const message = await tx.chat.message(input.roomId, input.number);
    if (message === undefined) throw new NotFoundError("COMMENT_NOT_FOUND", "The message does not exist.");
    if (message.authorId !== userId)
      throw new ForbiddenError("NOT_MESSAGE_AUTHOR", "Only a message's author changes it.");
    const files = await tx.chatAttachments.listOf(input.roomId, [input.number]);
    const body = checkChatMessage(input.text, files.length);
    const at = ctx.clock.now();
    if (body !== message.body) await tx.chat.editMessage(input.roomId, input.number, body, at);
    const members = (await tx.chat.members([room.id])).get(room.id) ?? [];
    const edited = body === message.body ? message : { ...message, body, editedAt: at };
    return { room, members, message: { ...edited, attachments: files } };
  });
}

/**
 * Deletes one of the caller's own messages; its number is never handed out again.
 * @throws NotFoundError NOT_FOUND, COMMENT_NOT_FOUND; ForbiddenError NOT_MESSAGE_AUTHOR
 */
export async function deleteMessage(
  ctx: ServiceContext,
  actor: Actor,
  input: { roomId: number; number: number },
): Promise<MessageView> {
  const { view, keys } = await ctx.store.transaction(async (tx) => {
    const userId = actor.user.id;
    const room = await requireRoom(tx, userId, input.roomId);
    const message = await tx.chat.message(input.roomId, input.number);
    if (message === undefined) throw new NotFoundError("COMMENT_NOT_FOUND", "The message does not exist.");
    if (message.authorId !== userId)
      throw new ForbiddenError("NOT_MESSAGE_AUTHOR", "Only a message's author deletes it.");
    const removed = await tx.chatAttachments.removeOf(input.roomId, input.number);
    await tx.chatLikes.removeOf(input.roomId, input.number);
    await tx.chat.deleteMessage(input.roomId, input.number);
    const members = (await tx.chat.members([room.id])).get(room.id) ?? [];
    return { view: { room, members, message }, keys: removed };
  });
  await removeBlobs(ctx.blobs, keys);
  return view;
}

/**
 * A page of a room's messages, newest first (`GET /api/comment/V2?entry=<room id>`), with its
 * delta sync cursor; with `changesSince`, the messages changed after it (docs/api.md "Delta sync").
 * @throws NotFoundError NOT_FOUND; ValidationError CHANGES_CURSOR_OTHER_FEED; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function listMessages(
  ctx: ServiceContext,
  actor: Actor,
  input: { roomId: number; page: PageWindow; changesSince?: ChangeCursor | undefined },
): Promise<MessagesView> {
  const { changesSince } = input;
  if (changesSince !== undefined) return messageChangesOf(ctx, actor, { ...input, changesSince });
  return ctx.store.read(async (tx) => {
    const room = await requireRoom(tx, actor.user.id, input.roomId);
    const changes = await latestCursor(tx, messageChanges(input.roomId).scope);
    const page = await tx.chat.messages(input.roomId, input.page);
    const messages = await decorateMessages(tx, input.roomId, page, actor.user.id);
    const total = await tx.chat.countMessages(input.roomId);
    return {
      room,
      members: (await tx.chat.members([room.id])).get(room.id) ?? [],
      messages,
      olderExists: input.page.offset + messages.length < total,
      newerExists: input.page.offset > 0 && total > 0,
      changes,
    };
  });
}

/**
 * A room's messages changed after the cursor. A former member gets the tombstones of the messages
 * they may hold, in an answer naming no title or member of the room; then NOT_FOUND, as every read
 * of the room answers them.
 */
async function messageChangesOf(
  ctx: ServiceContext,
  actor: Actor,
  input: { roomId: number; page: PageWindow; changesSince: ChangeCursor },
): Promise<MessagesView> {
  return ctx.store.read(async (tx) => {
    const room = await tx.chat.room(input.roomId, actor.user.id);
    const read = await readMemberChanges(
      tx,
      actor,
      messageChanges(input.roomId),
      input.changesSince,
      input.page.limit,
      {
        member: room !== undefined,
        refuse: () => {
          throw roomNotFound();
        },
      },
    );
    const messages = await decorateMessages(tx, input.roomId, read.items, actor.user.id);
    if (room === undefined || read.departed) {
      const unnamed: MemberRoom = {
        id: input.roomId,
        type: "THEME",
        title: "",
        creatorId: 0,
        creatorName: "",
        createdAt: 0,
        activityAt: 0,
        muted: false,
        unconfirmed: 0,
        lastNumber: 0,
      };
      return { room: unnamed, members: [], messages, olderExists: false, newerExists: false, changes: read.changes };
    }
    const members = (await tx.chat.members([room.id])).get(room.id) ?? [];
    return { room, members, messages, olderExists: false, newerExists: false, changes: read.changes };
  });
}

/** A room's messages as delta sync follows them (a room scope, keyed by the message's number). */
function messageChanges(roomId: number): ChangeFeed<ChatMessage> {
  return {
    scope: { groupId: roomScopeOwner(roomId), kind: MESSAGE_CHANGE_KIND, parentId: roomId },
    load: (tx, numbers) => tx.chat.messagesNumbered(roomId, numbers),
    idOf: (message) => message.number,
    shows: () => true,
  };
}
