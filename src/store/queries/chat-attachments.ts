import type { Kysely, Selectable } from "kysely";
import type { ChatAttachment } from "../../domain/chat.js";
import type { Database } from "../schema.js";
import type { ChatAttachmentsTable } from "../schema-chat.js";

/** Files of chat messages (metadata; bytes are in the blob store). */
export interface ChatAttachmentRepo {
  insert(attachment: ChatAttachment & { at: number }): Promise<void>;
  /** The files of these messages of one room, by message then position. */
  listOf(roomId: number, numbers: readonly number[]): Promise<ChatAttachment[]>;
  find(roomId: number, number: number, position: number): Promise<ChatAttachment | undefined>;
  /** Removes a message's files; returns their blob keys, to delete after commit. */
  removeOf(roomId: number, number: number): Promise<string[]>;
}

function toAttachment(row: Selectable<ChatAttachmentsTable>): ChatAttachment {
  return {
    roomId: row.room_id,
    messageNumber: row.message_number,
    position: row.position,
    fileName: row.file_name,
    contentType: row.content_type,
    size: Number(row.size),
    blobKey: row.blob_key,
  };
}

/** Chat attachment queries. */
export function chatAttachmentRepo(db: Kysely<Database>): ChatAttachmentRepo {
  return {
    async insert(attachment) {
      await db
        .insertInto("chat_attachments")
        .values({
          room_id: attachment.roomId,
          message_number: attachment.messageNumber,
          position: attachment.position,
          file_name: attachment.fileName,
          content_type: attachment.contentType,
          size: attachment.size,
          blob_key: attachment.blobKey,
          created_at: attachment.at,
        })
        .execute();
    },
    async listOf(roomId, numbers) {
      if (numbers.length === 0) return [];
      const rows = await db
        .selectFrom("chat_attachments")
        .selectAll()
        .where("room_id", "=", roomId)
        .where("message_number", "in", numbers)
        .orderBy("message_number")
        .orderBy("position")
        .execute();
      return rows.map(toAttachment);
    },
    async find(roomId, number, position) {
      const row = await db
        .selectFrom("chat_attachments")
        .selectAll()
        .where("room_id", "=", roomId)
        .where("message_number", "=", number)
        .where("position", "=", position)
        .executeTakeFirst();
      return row && toAttachment(row);
    },
    async removeOf(roomId, number) {
      const rows = await db
        .deleteFrom("chat_attachments")
        .where("room_id", "=", roomId)
        .where("message_number", "=", number)
        .returning("blob_key")
        .execute();
      return rows.map((row) => row.blob_key);
    },
  };
}
