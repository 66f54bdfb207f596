import type { ChatAttachment, ChatMessage } from "../../domain/chat.js";
import { NO_LIKES } from "../../domain/reaction.js";
import type { Tx } from "../../store/store.js";
import type { StagedFile } from "../comment/comment.js";

/** Records a new message's staged files under the blob keys chosen for them (bytes move after commit). */
export async function storeMessageFiles(
  tx: Tx,
  message: { roomId: number; number: number; at: number },
  files: readonly StagedFile[],
  keys: readonly string[],
): Promise<ChatAttachment[]> {
  const attachments: ChatAttachment[] = [];
  for (const [index, file] of files.entries()) {
    const attachment: ChatAttachment = {
      ...file.draft,
      roomId: message.roomId,
      messageNumber: message.number,
      position: index + 1,
      blobKey: keys[index] ?? "",
    };
    await tx.chatAttachments.insert({ ...attachment, at: message.at });
    attachments.push(attachment);
  }
  return attachments;
}

/**
 * These messages of one room with their files and likes as `viewerId` sees them (count, own
 * like): one query each for the whole page.
 */
export async function decorateMessages(
  tx: Tx,
  roomId: number,
  messages: readonly ChatMessage[],
  viewerId: number,
): Promise<ChatMessage[]> {
  const withAttachments = await withFiles(tx, roomId, messages);
  const likes = await tx.chatLikes.summarize(
    roomId,
    messages.map((message) => message.number),
    viewerId,
  );
  return withAttachments.map((message) => ({ ...message, likes: likes.get(message.number) ?? NO_LIKES }));
}

/** These messages of one room with their files: one query for the whole page. */
export async function withFiles(tx: Tx, roomId: number, messages: readonly ChatMessage[]): Promise<ChatMessage[]> {
  const files = await tx.chatAttachments.listOf(
    roomId,
    messages.map((message) => message.number),
  );
  return messages.map((message) => ({
    ...message,
    attachments: files.filter((file) => file.messageNumber === message.number),
  }));
}
