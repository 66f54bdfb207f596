// The groups as the site's administration reads and changes them: the searched list with member
// counts and last activity (one query per page), stored bytes per group, archiving, and the one
// removal of a group with everything in it.
import { type Kysely, sql } from "kysely";
import { CONTENT_KINDS, KINDS } from "../../domain/kinds.js";
import type { Database } from "../schema.js";

/** A group as the administration lists it. */
export interface AdminGroupRow {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
  readonly archivedAt: number | null;
  readonly members: number;
  /** The last write to what the group holds (its change version's time), or its creation. */
  readonly lastActivityAt: number;
}

/** Bytes a group stores: its files' versions and its comments' attachments. */
export interface GroupStoredBytes {
  readonly id: number;
  readonly name: string;
  readonly bytes: number;
}

/** The administration's queries of groups. */
export interface GroupAdminRepo {
  /** Groups after id `afterId` whose name contains `text`, in id order, `limit` at most. */
  list(query: { text: string; afterId: number; limit: number }): Promise<AdminGroupRow[]>;
  /** Marks the group archived at `at`, or in use again (null). */
  setArchived(groupId: number, at: number | null): Promise<void>;
  /** The `limit` groups that store the most bytes, largest first. */
  largest(limit: number): Promise<GroupStoredBytes[]>;
  /**
   * Removes the group and everything in it (content, comments, files, members, notifications);
   * returns the blob keys to delete once the transaction has committed.
   */
  removeWithContent(groupId: number): Promise<string[]>;
}

/** Tables keyed by group without a cascading reference to it: emptied by hand. */
const GROUP_KEYED = [
  "likes",
  "favorites",
  "notifications",
  "like_notifications",
  "mentions",
  "live_events",
  "mail_changes",
  "mail_batches",
] as const;

/** The administration's group queries. */
export function groupAdminRepo(db: Kysely<Database>): GroupAdminRepo {
  return {
    async list({ text, afterId, limit }) {
      let query = db
        .selectFrom("groups")
        .leftJoin("group_changes", "group_changes.group_id", "groups.id")
        .select(["groups.id", "groups.name", "groups.created_at", "groups.archived_at", "group_changes.changed_at"])
        .select((eb) =>
          eb
            .selectFrom("memberships")
            .select(eb.fn.countAll<number>().as("n"))
            .whereRef("memberships.group_id", "=", "groups.id")
            .where("memberships.status", "=", "JOIN")
            .as("members"),
        )
        .where("groups.id", ">", afterId);
      if (text !== "") {
        const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where(sql`lower(groups.name)`, "like", sql<string>`${pattern} escape '\\'`);
      }
      const rows = await query.orderBy("groups.id").limit(limit).execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        createdAt: row.created_at,
        archivedAt: row.archived_at,
        members: Number(row.members ?? 0),
        lastActivityAt: Math.max(row.created_at, Number(row.changed_at ?? 0)),
      }));
    },
    async setArchived(groupId, at) {
      await db.updateTable("groups").set({ archived_at: at }).where("id", "=", groupId).execute();
    },
    async largest(limit) {
      const stored = db
        .selectFrom("attachments")
        .select(["attachments.group_id as group_id", "attachments.size as size"])
        .unionAll(
          db
            .selectFrom("file_versions")
            .innerJoin("files", "files.id", "file_versions.file_id")
            .select(["files.group_id as group_id", "file_versions.size as size"]),
        );
      const rows = await db
        .selectFrom(stored.as("stored"))
        .innerJoin("groups", "groups.id", "stored.group_id")
        .select(["groups.id", "groups.name"])
        .select((eb) => eb.fn.sum<number | string>("stored.size").as("bytes"))
        .groupBy(["groups.id", "groups.name"])
        .orderBy("bytes", "desc")
        .orderBy("groups.id")
        .limit(limit)
        .execute();
      return rows.map((row) => ({ id: row.id, name: row.name, bytes: Number(row.bytes) }));
    },
    async removeWithContent(groupId) {
      const attachments = await db
        .selectFrom("attachments")
        .select("blob_key")
        .where("group_id", "=", groupId)
        .execute();
      const versions = await db
        .selectFrom("file_versions")
        .innerJoin("files", "files.id", "file_versions.file_id")
        .select(["file_versions.blob_key", "file_versions.thumbnail_key"])
        .where("files.group_id", "=", groupId)
        .execute();
      // Rows keyed by an item of the group but holding no group column of their own.
      for (const kind of CONTENT_KINDS) {
        const ids = db.selectFrom(KINDS[kind].table).select("id").where("group_id", "=", groupId);
        await db.deleteFrom("comment_counters").where("parent_kind", "=", kind).where("parent_id", "in", ids).execute();
        await db.deleteFrom("comment_reads").where("parent_kind", "=", kind).where("parent_id", "in", ids).execute();
      }
      await db
        .deleteFrom("topic_leases")
        .where("topic_id", "in", db.selectFrom("topics").select("id").where("group_id", "=", groupId))
        .execute();
      for (const table of GROUP_KEYED) await db.deleteFrom(table).where("group_id", "=", groupId).execute();
      await db.deleteFrom("groups").where("id", "=", groupId).execute();
      // Last: the triggers of the deletes above moved the group's change version.
      await db.deleteFrom("group_changes").where("group_id", "=", groupId).execute();
      return [
        ...attachments.map((row) => row.blob_key),
        ...versions.flatMap((row) => (row.thumbnail_key === null ? [row.blob_key] : [row.blob_key, row.thumbnail_key])),
      ];
    },
  };
}
