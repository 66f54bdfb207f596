import { type Kysely, type SqlBool, sql } from "kysely";
import type { ContentKind, ContentRef } from "../../domain/item-id.js";
import type { Notification, NotificationFilter } from "../../domain/notification.js";
import type { Database } from "../schema.js";
import { joinedGroupIds, stateOf, textOf, withItemText } from "./notification-items.js";
import type { RowOf } from "./rows.js";

/** A joined member a mention can name: the user, their member id (for their page) and what handles match. */
export interface MentionableMember {
  readonly userId: number;
  readonly memberId: number;
  readonly name: string;
  readonly email: string;
}

/** A notification's place in a user's newest-first list. */
export interface ListedRow {
  readonly id: number;
  readonly updatedAt: number;
}

/** Mention notifications (docs/api.md "Mentions"): one per (mentioned user, item). */
export interface MentionRepo {
  /**
   * The group's joined members whose account is in use and whose name is one of the handles or
   * whose address's local part is (in any letter case); the caller compares exactly (domain/mention.ts).
   */
  membersNamed(groupId: number, handles: readonly string[]): Promise<MentionableMember[]>;
  /** Joined members whose name or address starts with `prefix` (any letter case), by name. */
  suggest(groupId: number, prefix: string, limit: number): Promise<MentionableMember[]>;
  /** Of these names, those at least two joined members of the group bear. */
  sharedNames(groupId: number, names: readonly string[]): Promise<Set<string>>;
  /** Creates, or brings to the top unconfirmed, the item's mention notification of each user. */
  record(
    item: ContentRef,
    commentNumber: number | null,
    userIds: readonly number[],
    actorId: number | null,
    at: number,
  ): Promise<void>;
  /** The first `limit` rows of the user's mention notifications in joined groups, newest first. */
  listRows(userId: number, filter: NotificationFilter, limit: number): Promise<ListedRow[]>;
  /** These mention notifications as their user sees them, newest first. */
  details(ids: readonly number[]): Promise<Notification[]>;
  /** Confirms the user's mention notifications of these items; returns all of them (idempotent). */
  confirm(userId: number, items: readonly ContentRef[], at: number): Promise<Notification[]>;
  /** Removes the mention notifications of these items (they are being deleted). */
  removeItems(kind: ContentKind, ids: readonly number[]): Promise<void>;
  /** Removes those whose latest mention was this comment (it is being deleted). */
  removeOfComment(parent: ContentRef, number: number): Promise<void>;
  /** Removes a user's mention notifications of a group (they left it). */
  removeOfMember(userId: number, groupId: number): Promise<void>;
}

function selectMembers(db: Kysely<Database>, groupId: number) {
  return db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["u.id as userId", "m.id as memberId", "u.name as name", "u.email as email"])
    .where("m.group_id", "=", groupId)
    .where("m.status", "=", "JOIN")
    .where("u.disabled_at", "is", null);
}

/** `lower(substr(column, 1, n)) = text`: a prefix test without LIKE's wildcards, the same on both engines. */
function startsWith(column: "u.name" | "u.email", text: string) {
  return sql<SqlBool>`lower(substr(${sql.ref(column)}, 1, cast(${[...text].length} as integer))) = ${text}`;
}

function selectDetails(db: Kysely<Database>) {
  return db
    .selectFrom("mentions as n")
    .innerJoin("groups as g", "g.id", "n.group_id")
    .$call(withItemText)
    .leftJoin("users as actor", "actor.id", "n.actor_id")
    .selectAll("n")
    .select(["actor.name as actor_name"]);
}

function toNotification(row: RowOf<typeof selectDetails>): Notification {
  return {
    item: { kind: row.item_kind, groupId: row.group_id, id: row.item_id },
    groupName: row.group_name,
    ...textOf(row),
    ...stateOf(row),
    repliedToId: null,
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name ?? "" },
    event: "mention",
    confirmed: row.confirmed === 1,
    unconfirmedComments: 0,
    commentNumber: row.comment_number,
    commentDeleted: false,
    summaryUpdatedAt: null,
    summaryUpdator: null,
    updatedAt: row.updated_at,
    createdAt: row.created_at,
    lastAccessAt: row.last_access_at,
  };
}

/** Mention queries. */
export function mentionRepo(db: Kysely<Database>): MentionRepo {
  const details = async (ids: readonly number[]): Promise<Notification[]> => {
    if (ids.length === 0) return [];
    const rows = await selectDetails(db)
      .where("n.id", "in", ids)
      .orderBy("n.updated_at", "desc")
      .orderBy("n.id", "desc")
      .execute();
    return rows.map(toNotification);
  };
  return {
    async membersNamed(groupId, handles) {
      if (handles.length === 0) return [];
      return selectMembers(db, groupId)
        .where((eb) =>
          eb.or([
            eb("u.name", "in", handles),
            ...handles.map((handle) => startsWith("u.email", `${handle.toLowerCase()}@`)),
          ]),
        )
        .execute();
    },
    async suggest(groupId, prefix, limit) {
      let query = selectMembers(db, groupId);
      const lower = prefix.toLowerCase();
      if (lower !== "") query = query.where((eb) => eb.or([startsWith("u.name", lower), startsWith("u.email", lower)]));
      return query.orderBy("u.name").orderBy("m.id").limit(limit).execute();
    },
    async sharedNames(groupId, names) {
      if (names.length === 0) return new Set();
      const rows = await selectMembers(db, groupId)
        .clearSelect()
        .select("u.name as name")
        .where("u.name", "in", names)
        .groupBy("u.name")
        .having((eb) => eb.fn.countAll(), ">", 1)
        .execute();
      return new Set(rows.map((row) => row.name));
    },
    async record(item, commentNumber, userIds, actorId, at) {
      if (userIds.length === 0) return;
      await db
        .insertInto("mentions")
        .values(
          userIds.map((userId) => ({
            user_id: userId,
            group_id: item.groupId,
            item_kind: item.kind,
            item_id: item.id,
            actor_id: actorId,
            comment_number: commentNumber,
            confirmed: 0,
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["item_kind", "item_id", "user_id"]).doUpdateSet((eb) => ({
            actor_id: eb.ref("excluded.actor_id"),
            comment_number: eb.ref("excluded.comment_number"),
            confirmed: 0,
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
    },
    async listRows(userId, filter, limit) {
      let query = db
        .selectFrom("mentions")
        .select(["id", "updated_at"])
        .where("user_id", "=", userId)
        .where("group_id", "in", joinedGroupIds(db, userId));
      if (filter.unconfirmedOnly) query = query.where("confirmed", "=", 0);
      if (filter.groupId !== null) query = query.where("group_id", "=", filter.groupId);
      const rows = await query.orderBy("updated_at", "desc").orderBy("id", "desc").limit(limit).execute();
      return rows.map((row) => ({ id: row.id, updatedAt: row.updated_at }));
    },
    details,
    async confirm(userId, items, at) {
      if (items.length === 0) return [];
      const mine = db
        .selectFrom("mentions")
        .select("id")
        .where("user_id", "=", userId)
        .where("group_id", "in", joinedGroupIds(db, userId))
        .where((eb) =>
          eb.or(
            items.map((item) =>
              eb.and([eb("item_kind", "=", item.kind), eb("item_id", "=", item.id), eb("group_id", "=", item.groupId)]),
            ),
          ),
        );
      const ids = (await mine.execute()).map((row) => row.id);
      if (ids.length === 0) return [];
      await db
        .updateTable("mentions")
        .set({ confirmed: 1, last_access_at: at })
        .where("id", "in", ids)
        .where("confirmed", "=", 0)
        .execute();
      return details(ids);
    },
    async removeItems(kind, ids) {
      if (ids.length > 0)
        await db.deleteFrom("mentions").where("item_kind", "=", kind).where("item_id", "in", ids).execute();
    },
    async removeOfComment(parent, number) {
      await db
        .deleteFrom("mentions")
        .where("item_kind", "=", parent.kind)
        .where("item_id", "=", parent.id)
        .where("comment_number", "=", number)
        .execute();
    },
    async removeOfMember(userId, groupId) {
      await db.deleteFrom("mentions").where("user_id", "=", userId).where("group_id", "=", groupId).execute();
    },
  };
}
