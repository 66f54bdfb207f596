import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** A file version the person uploaded, with what its place in a download needs. */
export interface UploadedVersion {
  readonly id: number;
  readonly groupId: number;
  readonly groupName: string;
  readonly fileId: number;
  readonly versionNumber: number;
  readonly fileName: string;
  readonly size: number;
  readonly blobKey: string;
}

/** A file attached to a comment or chat message the person wrote: where it was and its bytes' key. */
export interface WrittenAttachment {
  readonly id: number;
  /** The group's name for a comment's file, the room's title for a chat message's (empty: a direct room). */
  readonly placeName: string;
  readonly fileName: string;
  readonly blobKey: string;
}

/** A chat message the person wrote, by its room and number. */
export interface WrittenMessage {
  readonly id: number;
  readonly roomId: number;
  readonly number: number;
}

/**
 * What one person made, in pages by row id (`afterId` exclusive, `limit` rows), for the download
 * of their own data (services/account/my-data.ts): only rows whose author or owner they are.
 */
export interface MyDataRepo {
  /** When the account was made. */
  createdAt(userId: number): Promise<number | undefined>;
  topicIds(userId: number, afterId: number, limit: number): Promise<number[]>;
  commentIds(userId: number, afterId: number, limit: number): Promise<number[]>;
  personalEventIds(userId: number, afterId: number, limit: number): Promise<number[]>;
  personalTaskIds(userId: number, afterId: number, limit: number): Promise<number[]>;
  chatMessages(userId: number, afterId: number, limit: number): Promise<WrittenMessage[]>;
  uploadedVersions(userId: number, afterId: number, limit: number): Promise<UploadedVersion[]>;
  /** Files attached to the comments the person wrote, by attachment id. */
  commentAttachments(userId: number, afterId: number, limit: number): Promise<WrittenAttachment[]>;
  /** Files attached to the chat messages the person wrote, by attachment id. */
  chatAttachments(userId: number, afterId: number, limit: number): Promise<WrittenAttachment[]>;
}

/** The tables read by id alone, and the column that names their author or owner. */
const OWNER_COLUMN = {
  topics: "author_id",
  comments: "author_id",
  personal_events: "owner_id",
  personal_tasks: "user_id",
} as const;

export function myDataRepo(db: Kysely<Database>): MyDataRepo {
  /** A page of the ids of `table`'s rows that `userId` wrote or owns, after `afterId`. */
  const ownedIds = async (table: keyof typeof OWNER_COLUMN, userId: number, afterId: number, limit: number) => {
    const rows = await db
      .selectFrom(table)
      .select("id")
      .where(db.dynamic.ref(OWNER_COLUMN[table]), "=", userId)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.id));
  };
  return {
    async createdAt(userId) {
      const row = await db.selectFrom("users").select("created_at").where("id", "=", userId).executeTakeFirst();
      return row === undefined ? undefined : Number(row.created_at);
    },
    topicIds: (userId, afterId, limit) => ownedIds("topics", userId, afterId, limit),
    commentIds: (userId, afterId, limit) => ownedIds("comments", userId, afterId, limit),
    personalEventIds: (userId, afterId, limit) => ownedIds("personal_events", userId, afterId, limit),
    personalTaskIds: (userId, afterId, limit) => ownedIds("personal_tasks", userId, afterId, limit),
    async chatMessages(userId, afterId, limit) {
      const rows = await db
        .selectFrom("chat_messages")
        .select(["id", "room_id", "number"])
        .where("author_id", "=", userId)
        .where("id", ">", afterId)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: Number(row.id), roomId: Number(row.room_id), number: Number(row.number) }));
    },
    async uploadedVersions(userId, afterId, limit) {
      const rows = await db
        .selectFrom("file_versions as v")
        .innerJoin("files as f", "f.id", "v.file_id")
        .innerJoin("groups as g", "g.id", "f.group_id")
        .select([
          "v.id",
          "v.file_id",
          "v.version_number",
          "v.file_name",
          "v.size",
          "v.blob_key",
          "f.group_id",
          "g.name as group_name",
        ])
        .where("v.author_id", "=", userId)
        .where("v.id", ">", afterId)
        .orderBy("v.id")
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        groupId: Number(row.group_id),
        groupName: row.group_name,
        fileId: Number(row.file_id),
        versionNumber: Number(row.version_number),
        fileName: row.file_name,
        size: Number(row.size),
        blobKey: row.blob_key,
      }));
    },
    async commentAttachments(userId, afterId, limit) {
      const rows = await db
        .selectFrom("attachments as a")
        .innerJoin("comments as c", "c.id", "a.comment_id")
        .innerJoin("groups as g", "g.id", "a.group_id")
        .select(["a.id", "a.file_name", "a.blob_key", "g.name as place_name"])
        .where("c.author_id", "=", userId)
        .where("a.id", ">", afterId)
        .orderBy("a.id")
        .limit(limit)
        .execute();
      return rows.map(toAttachment);
    },
    async chatAttachments(userId, afterId, limit) {
      const rows = await db
        .selectFrom("chat_attachments as a")
        .innerJoin("chat_messages as m", (join) =>
          join.onRef("m.room_id", "=", "a.room_id").onRef("m.number", "=", "a.message_number"),
        )
        .innerJoin("chat_rooms as r", "r.id", "a.room_id")
        .select(["a.id", "a.file_name", "a.blob_key", "r.title as place_name"])
        .where("m.author_id", "=", userId)
        .where("a.id", ">", afterId)
        .orderBy("a.id")
        .limit(limit)
        .execute();
      return rows.map(toAttachment);
    },
  };
}

function toAttachment(row: { id: number; file_name: string; blob_key: string; place_name: string }): WrittenAttachment {
  return { id: Number(row.id), placeName: row.place_name, fileName: row.file_name, blobKey: row.blob_key };
}
