import type { Kysely, Selectable } from "kysely";
import type { Attachment } from "../../domain/attachment.js";
import type { Database } from "../schema.js";
import type { AttachmentsTable } from "../schema-content.js";

/** Files attached to comments (metadata; bytes are in the blob store). */
export interface AttachmentRepo {
  insert(attachment: Omit<Attachment, "id"> & { groupId: number; at: number }): Promise<Attachment>;
  /** The attachments of these comments, by comment then position. */
  listOf(commentIds: readonly number[]): Promise<Attachment[]>;
  find(commentId: number, position: number): Promise<Attachment | undefined>;
  /** Removes the attachments of these comments; returns their blob keys, to delete after commit. */
  removeOf(commentIds: readonly number[]): Promise<string[]>;
}

function toAttachment(row: Selectable<AttachmentsTable>): Attachment {
  return {
    id: row.id,
    commentId: row.comment_id,
    position: row.position,
    fileName: row.file_name,
    contentType: row.content_type,
    size: row.size,
    blobKey: row.blob_key,
  };
}

/** Attachment queries. */
export function attachmentRepo(db: Kysely<Database>): AttachmentRepo {
  return {
    async insert(attachment) {
      const row = await db
        .insertInto("attachments")
        .values({
          group_id: attachment.groupId,
          comment_id: attachment.commentId,
          position: attachment.position,
          file_name: attachment.fileName,
          content_type: attachment.contentType,
          size: attachment.size,
          blob_key: attachment.blobKey,
          created_at: attachment.at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAttachment(row);
    },
    async listOf(commentIds) {
      if (commentIds.length === 0) return [];
      const rows = await db
        .selectFrom("attachments")
        .selectAll()
        .where("comment_id", "in", commentIds)
        .orderBy("comment_id")
        .orderBy("position")
        .execute();
      return rows.map(toAttachment);
    },
    async find(commentId, position) {
      const row = await db
        .selectFrom("attachments")
        .selectAll()
        .where("comment_id", "=", commentId)
        .where("position", "=", position)
        .executeTakeFirst();
      return row && toAttachment(row);
    },
    async removeOf(commentIds) {
      if (commentIds.length === 0) return [];
      const rows = await db
        .deleteFrom("attachments")
        .where("comment_id", "in", commentIds)
        .returning("blob_key")
        .execute();
      return rows.map((row) => row.blob_key);
    },
  };
}
