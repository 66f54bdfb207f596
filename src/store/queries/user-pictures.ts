import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** A user's picture as stored: normalised bytes, their type and the ETag that changes with them. */
export interface StoredPicture {
  readonly mediaType: string;
  readonly bytes: Uint8Array;
  readonly etag: string;
  readonly updatedAt: number;
}

/** Users' pictures (their icons). */
export interface UserPictureRepo {
  /** Sets or replaces the user's picture. */
  put(userId: number, picture: StoredPicture): Promise<void>;
  /** Removes it; false when there was none. */
  remove(userId: number): Promise<boolean>;
  find(userId: number): Promise<StoredPicture | undefined>;
  /** The ETag of each picture of `userIds` whose owner has joined `groupId`: the pictures a page of that group may show. */
  etagsInGroup(groupId: number, userIds: readonly number[]): Promise<Map<number, string>>;
  /** Whether the two users have both joined some group (or are one user): who may see whose picture. */
  shareGroup(viewerId: number, userId: number): Promise<boolean>;
}

/** Picture queries. */
export function userPictureRepo(db: Kysely<Database>): UserPictureRepo {
  return {
    async put(userId, picture) {
      const values = {
        media_type: picture.mediaType,
        bytes: picture.bytes,
        etag: picture.etag,
        updated_at: picture.updatedAt,
      };
      await db
        .insertInto("user_pictures")
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
        .execute();
    },
    async remove(userId) {
      const result = await db.deleteFrom("user_pictures").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async find(userId) {
      const row = await db.selectFrom("user_pictures").selectAll().where("user_id", "=", userId).executeTakeFirst();
      return (
        row && {
          mediaType: row.media_type,
          bytes: new Uint8Array(row.bytes),
          etag: row.etag,
          updatedAt: row.updated_at,
        }
      );
    },
    async etagsInGroup(groupId, userIds) {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("user_pictures")
        .innerJoin("memberships", "memberships.user_id", "user_pictures.user_id")
        .select(["user_pictures.user_id", "user_pictures.etag"])
        .where("memberships.group_id", "=", groupId)
        .where("memberships.status", "=", "JOIN")
        .where("user_pictures.user_id", "in", [...new Set(userIds)])
        .execute();
      return new Map(rows.map((row) => [row.user_id, row.etag]));
    },
    async shareGroup(viewerId, userId) {
      if (viewerId === userId) return true;
      const row = await db
        .selectFrom("memberships as mine")
        .innerJoin("memberships as theirs", "theirs.group_id", "mine.group_id")
        .select("mine.group_id")
        .where("mine.user_id", "=", viewerId)
        .where("mine.status", "=", "JOIN")
        .where("theirs.user_id", "=", userId)
        .where("theirs.status", "=", "JOIN")
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
