import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { MEMBER_LEFT } from "../item-change-sources.js";
import { CONTENT_KINDS } from "../../domain/kinds.js";

/**
 * The items of one feed whose changes a cursor follows: a group's items of one kind (a parent's
 * comments), or a person's (`groupId` = minus the user's id, docs/architecture.md "Delta sync").
 */
export interface ChangeScope {
  /** The group; for a person's scope, minus the user's id. */
  readonly groupId: number;
  /** BOARD, TASK, CABINET, MEMBER, GW_SCHEDULE, `<parent kind>_COMMENT`, TODO. */
  readonly kind: string;
  /** A comment's parent item; 0 for the other kinds. */
  readonly parentId: number;
  /** A feed of several kinds (of any parent): these, instead of `kind` and `parentId`. */
  readonly kinds?: readonly string[];
}

/** One item's last change (or its deletion), as item_changes keeps it. */
export interface ItemChange {
  readonly kind: string;
  readonly parentId: number;
  readonly itemId: number;
  readonly refNumber: number;
  readonly seq: number;
  readonly firstSeq: number;
  readonly changedAt: number;
  readonly deleted: boolean;
}

/** The delta sync's change index and tombstones (migration 0054). */
export interface ItemChangeRepo {
  /** The scope's changes numbered after `after`, oldest first, at most `limit`. */
  after(scope: ChangeScope, after: number, limit: number): Promise<ItemChange[]>;
  /** The highest number of the scope, or of the group's pruned tombstones when higher; 0 when none. */
  latest(scope: ChangeScope): Promise<number>;
  /** The newest number of the group's pruned tombstones (0 when none were pruned). */
  horizon(groupId: number): Promise<number>;
  /** The number and time of the user's last departure from the group; undefined when they never left. */
  departure(groupId: number, userId: number): Promise<{ readonly seq: number; readonly at: number } | undefined>;
  /**
   * What a member who left at `leftAt` may still hold of the scope: items that existed before it,
   * but not those deleted at or before `known`; after `afterSeq`, oldest first, at most `limit`.
   */
  heldAt(scope: ChangeScope, leftAt: number, known: number, afterSeq: number, limit: number): Promise<ItemChange[]>;
  /**
   * The change rows (live or tombstones) of these comments of a group: each names its parent item
   * (`kind` = `<parent kind>_COMMENT`, `parentId`) and its number, even once the comment is gone.
   */
  commentRows(groupId: number, commentIds: readonly number[]): Promise<ItemChange[]>;
  /**
   * Deletes the tombstones changed before `before`, moves each pruned group's horizon and version;
   * answers how many were deleted.
   */
  prune(before: number): Promise<number>;
}

function toChange(row: {
  kind: string;
  parent_id: number;
  item_id: number;
  ref_number: number;
  seq: number | null;
  first_seq: number | null;
  changed_at: number;
  deleted: number;
}): ItemChange {
  return {
    kind: row.kind,
    parentId: row.parent_id,
    itemId: row.item_id,
    refNumber: row.ref_number,
    seq: row.seq ?? 0,
    firstSeq: row.first_seq ?? 0,
    changedAt: row.changed_at,
    deleted: row.deleted === 1,
  };
}

/** Item change queries. */
export function itemChangeRepo(db: Kysely<Database>): ItemChangeRepo {
  const inScope = (scope: ChangeScope) => {
    const query = db.selectFrom("item_changes").where("group_id", "=", scope.groupId);
    if (scope.kinds !== undefined) return query.where("kind", "in", scope.kinds);
    return query.where("kind", "=", scope.kind).where("parent_id", "=", scope.parentId);
  };
  const columns = ["kind", "parent_id", "item_id", "ref_number", "seq", "first_seq", "changed_at", "deleted"] as const;
  return {
    async after(scope, after, limit) {
      const rows = await inScope(scope).select(columns).where("seq", ">", after).orderBy("seq").limit(limit).execute();
      return rows.map(toChange);
    },
    async latest(scope) {
      const row = await inScope(scope)
        .select((eb) => eb.fn.max("seq").as("seq"))
        .executeTakeFirst();
      return Math.max(Number(row?.seq ?? 0), await this.horizon(scope.groupId));
    },
    async horizon(groupId) {
      const row = await db
        .selectFrom("item_change_horizons")
        .select("pruned_seq")
        .where("group_id", "=", groupId)
        .executeTakeFirst();
      return row?.pruned_seq ?? 0;
    },
    async departure(groupId, userId) {
      const row = await db
        .selectFrom("item_changes")
        .select(["seq", "changed_at"])
        .where("kind", "=", MEMBER_LEFT)
        .where("group_id", "=", groupId)
        .where("item_id", "=", userId)
        .where("seq", "is not", null)
        .executeTakeFirst();
      return row === undefined ? undefined : { seq: row.seq ?? 0, at: row.changed_at };
    },
    async heldAt(scope, leftAt, known, afterSeq, limit) {
      const rows = await inScope(scope)
        .select(columns)
        .where("seq", ">", afterSeq)
        .where("first_seq", "<=", leftAt)
        .where((eb) => eb.or([eb("deleted", "=", 0), eb("seq", ">", known)]))
        .orderBy("seq")
        .limit(limit)
        .execute();
      return rows.map(toChange);
    },
    async commentRows(groupId, commentIds) {
      if (commentIds.length === 0) return [];
      const rows = await db
        .selectFrom("item_changes")
        .select(columns)
        .where(
          "kind",
          "in",
          CONTENT_KINDS.map((kind) => `${kind}_COMMENT`),
        )
        .where("group_id", "=", groupId)
        .where("item_id", "in", commentIds)
        .execute();
      return rows.map(toChange);
    },
    async prune(before) {
      const pruned = await db
        .selectFrom("item_changes")
        .select(["group_id", (eb) => eb.fn.max("seq").as("seq")])
        .where("deleted", "=", 1)
        .where("changed_at", "<", before)
        .where("seq", "is not", null)
        .groupBy("group_id")
        .execute();
      let deleted = 0;
      for (const { group_id: groupId, seq } of pruned) {
        const through = Number(seq);
        const result = await db
          .deleteFrom("item_changes")
          .where("group_id", "=", groupId)
          .where("deleted", "=", 1)
          .where("seq", "<=", through)
          .executeTakeFirst();
        deleted += Number(result.numDeletedRows);
        await db
          .insertInto("item_change_horizons")
          .values({ group_id: groupId, pruned_seq: through })
          // Item ids are never reused: every later prune of a group goes past its earlier ones.
          .onConflict((oc) => oc.column("group_id").doUpdateSet({ pruned_seq: through }))
          .execute();
        // A plain feed's next-changes cursor counts the horizon: kept feeds of the group (or of
        // the person, for a personal scope) go stale. A chat room's scope (docs/architecture.md
        // "Room scopes") names no group row: chat feeds are never kept, and this updates nothing.
        if (groupId < 0) {
          await db
            .updateTable("member_changes")
            .set((eb) => ({ version: eb("version", "+", 1) }))
            .where("user_id", "=", -groupId)
            .execute();
        } else {
          await db
            .updateTable("group_changes")
            .set((eb) => ({ version: eb("version", "+", 1) }))
            .where("group_id", "=", groupId)
            .execute();
        }
      }
      return deleted;
    },
  };
}
