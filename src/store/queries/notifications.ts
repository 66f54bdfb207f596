import type { ExpressionBuilder, Kysely } from "kysely";
import type {
  Notification,
  NotificationEvent,
  NotificationFilter,
  NotificationItem,
  NotificationItemKind,
} from "../../domain/notification.js";
import type { Database } from "../schema.js";
import type { Engine } from "./engine.js";
import { fanOutChannel, timed } from "../events.js";
import { fanOutNotifications, fanOutNotificationsInTwoSteps } from "./notification-fanout.js";
import type { PageWindow } from "../page-window.js";
import type { RowOf } from "./rows.js";
import { type ListedRow, mentionRepo } from "./mentions.js";
import { joinedGroupIds, stateOf, textOf, withItemText } from "./notification-items.js";
import { liveEventRepo } from "./live-events.js";
import { mailChangeOf, mailChangeRepo } from "./mail-changes.js";
import { enqueueNotificationEvent, webhookRepo } from "./webhooks.js";

export { joinedGroupIds };

/** Update notifications: one per (user, item). */
export interface NotificationRepo {
  /**
   * Creates, or brings to the top unconfirmed, the item's notification of every joined member of
   * its group but the actor: one set-based statement, whatever the group's size.
   */
  fanOut(event: NotificationEvent): Promise<void>;
  /** Groups the user has joined and set to "do not notify". */
  mutedGroupIds(userId: number): Promise<number[]>;
  /** A page of the user's notifications, newest first (updated, then id). */
  list(userId: number, filter: NotificationFilter, page: PageWindow): Promise<Notification[]>;
  /**
   * Confirms the user's notifications of these items; returns every one of them the user has,
   * newest first, those confirmed before included (confirming is idempotent).
   */
  confirm(userId: number, items: readonly NotificationItem[], at: number): Promise<Notification[]>;
  /**
   * The item's unconfirmed notifications of these users, but for those who set its group to "do
   * not notify": one query for all the streams a process holds (the live stream's audience).
   */
  unconfirmedFor(item: NotificationItem, userIds: readonly number[]): Promise<UserNotification[]>;
  /** Of these items of one kind, the ids whose notification for the user is unconfirmed. */
  unconfirmedOf(userId: number, kind: NotificationItemKind, ids: readonly number[]): Promise<Set<number>>;
  /** Removes every notification of these items, mention notifications included (they are being deleted). */
  removeItems(kind: NotificationItemKind, ids: readonly number[]): Promise<void>;
  /** Removes a user's notifications, like notifications and mention notifications of a group (they left it). */
  removeOfMember(userId: number, groupId: number): Promise<void>;
}

/** A notification and the user it belongs to. */
export interface UserNotification {
  readonly userId: number;
  readonly notification: Notification;
}

/** Notifications with what an entry shows of their item, group and users (one row per notification). */
function selectDetails(db: Kysely<Database>) {
  return (
    db
      .selectFrom("notifications as n")
      .innerJoin("groups as g", "g.id", "n.group_id")
      .$call(withItemText)
      .leftJoin("users as actor", "actor.id", "n.actor_id")
      .leftJoin("users as updator", "updator.id", "n.summary_updator_id")
      // The comment of the last change and the one it answers, for "replied to you".
      .leftJoin("comments as said", (join) =>
        join
          .onRef("said.parent_kind", "=", "n.item_kind")
          .onRef("said.parent_id", "=", "n.item_id")
          .onRef("said.number", "=", "n.comment_number"),
      )
      .leftJoin("comments as answered", (join) =>
        join
          .onRef("answered.parent_kind", "=", "said.parent_kind")
          .onRef("answered.parent_id", "=", "said.parent_id")
          .onRef("answered.number", "=", "said.reply_to"),
      )
      .selectAll("n")
      .select(["actor.name as actor_name", "updator.name as updator_name", "answered.author_id as replied_to_id"])
  );
}

type DetailRow = RowOf<typeof selectDetails>;

function itemOf(row: DetailRow): NotificationItem {
  return row.item_kind === "GROUP"
    ? { kind: "GROUP", groupId: row.group_id, id: row.item_id }
    : { kind: row.item_kind, groupId: row.group_id, id: row.item_id };
}

function toNotification(row: DetailRow): Notification {
  return {
    item: itemOf(row),
    groupName: row.group_name,
    ...textOf(row),
    ...stateOf(row),
    actor: row.actor_id === null ? null : { id: row.actor_id, name: row.actor_name ?? "" },
    event: row.event,
    confirmed: row.confirmed === 1,
    unconfirmedComments: row.unconfirmed_comments,
    commentNumber: row.comment_number,
    repliedToId: row.event === "comment" ? row.replied_to_id : null,
    commentDeleted: row.comment_deleted === 1,
    summaryUpdatedAt: row.summary_updated_at,
    summaryUpdator:
      row.summary_updator_id === null ? null : { id: row.summary_updator_id, name: row.updator_name ?? "" },
    updatedAt: row.updated_at,
    createdAt: row.created_at,
    lastAccessAt: row.last_access_at,
  };
}

/** Update notification queries. */
export function notificationRepo(db: Kysely<Database>, engine: Engine): NotificationRepo {
  /** The notifications with these ids, newest first. */
  const details = async (ids: readonly number[]): Promise<Notification[]> => {
    if (ids.length === 0) return [];
    const rows = await selectDetails(db)
      .where("n.id", "in", ids)
      .orderBy("n.updated_at", "desc")
      .orderBy("n.id", "desc")
      .execute();
    return rows.map(toNotification);
  };
  let mentionQueries: ReturnType<typeof mentionRepo> | undefined;
  const mentions = () => (mentionQueries ??= mentionRepo(db));
  /** Ids first, off the (user, updated, id, confirmed) index; the joins run for the page alone. */
  const ordinaryRows = async (userId: number, filter: NotificationFilter, page: PageWindow): Promise<ListedRow[]> => {
    let query = db
      .selectFrom("notifications")
      .select(["id", "updated_at"])
      .where("user_id", "=", userId)
      .where("group_id", "in", joinedGroupIds(db, userId));
    if (filter.unconfirmedOnly) query = query.where("confirmed", "=", 0);
    if (filter.itemKind !== null) query = query.where("item_kind", "=", filter.itemKind);
    if (filter.groupId !== null) query = query.where("group_id", "=", filter.groupId);
    if (filter.hiddenGroupIds.length > 0) query = query.where("group_id", "not in", filter.hiddenGroupIds);
    const rows = await query
      .orderBy("updated_at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map((row) => ({ id: row.id, updatedAt: row.updated_at }));
  };
  return {
    async fanOut(event) {
      await timed(
        fanOutChannel,
        () => (engine === "sqlite" ? fanOutNotificationsInTwoSteps(db, event) : fanOutNotifications(db, event)),
        (seconds) => ({ seconds }),
      );
      // One log row for the whole group, in the fan-out's transaction: the streams find the audience.
      await liveEventRepo(db, engine).append({ kind: "notification", item: event.item, at: event.at });
      // And one row for the mailer, which finds the recipients later (services/mail-notify).
      const mailed = mailChangeOf(event);
      if (mailed !== undefined) await mailChangeRepo(db).append([mailed]);
      // And the webhooks that chose the change (services/webhook sends them after commit).
      await enqueueNotificationEvent(webhookRepo(db, engine), event);
    },
    async mutedGroupIds(userId) {
      const rows = await db
        .selectFrom("memberships")
        .select("group_id")
        .where("user_id", "=", userId)
        .where("status", "=", "JOIN")
        .where("notify", "=", 0)
        .execute();
      return rows.map((row) => row.group_id);
    },
    async list(userId, filter, page) {
      if (filter.mentions === "without")
        return details((await ordinaryRows(userId, filter, page)).map((row) => row.id));
      if (filter.mentions === "only") {
        const rows = await mentions().listRows(userId, filter, page.offset + page.limit);
        return mentions().details(rows.slice(page.offset).map((row) => row.id));
      }
      // Both lists from their start up to the page's end, merged newest first (mentions first on a tie).
      const window = { offset: 0, limit: page.offset + page.limit };
      const merged = [
        ...(await mentions().listRows(userId, filter, window.limit)).map((row) => ({ ...row, mention: true })),
        ...(await ordinaryRows(userId, filter, window)).map((row) => ({ ...row, mention: false })),
      ]
        .sort((a, b) => b.updatedAt - a.updatedAt || Number(b.mention) - Number(a.mention) || b.id - a.id)
        .slice(page.offset, page.offset + page.limit);
      const found = [
        ...(await mentions().details(merged.filter((row) => row.mention).map((row) => row.id))),
        ...(await details(merged.filter((row) => !row.mention).map((row) => row.id))),
      ];
      return found.sort(
        (a, b) => b.updatedAt - a.updatedAt || Number(b.event === "mention") - Number(a.event === "mention"),
      );
    },
    async confirm(userId, items, at) {
      if (items.length === 0) return [];
      const mine = (eb: ExpressionBuilder<Database, "notifications">) =>
        eb.and([
          eb("user_id", "=", userId),
          eb("group_id", "in", joinedGroupIds(db, userId)),
          eb.or(
            items.map((item) =>
              eb.and([eb("item_kind", "=", item.kind), eb("item_id", "=", item.id), eb("group_id", "=", item.groupId)]),
            ),
          ),
        ]);
      await db
        .updateTable("notifications")
        .set({ confirmed: 1, unconfirmed_comments: 0, last_access_at: at })
        .where(mine)
        .where("confirmed", "=", 0)
        .execute();
      // Those confirmed before are in the answer too, their last access unchanged: confirming is idempotent.
      const rows = await db.selectFrom("notifications").select("id").where(mine).execute();
      return details(rows.map((row) => row.id));
    },
    async unconfirmedFor(item, userIds) {
      if (userIds.length === 0) return [];
      const rows = await selectDetails(db)
        .innerJoin("memberships as m", (join) =>
          join.onRef("m.group_id", "=", "n.group_id").onRef("m.user_id", "=", "n.user_id"),
        )
        .where("m.status", "=", "JOIN")
        .where("m.notify", "=", 1)
        .where("n.item_kind", "=", item.kind)
        .where("n.item_id", "=", item.id)
        .where("n.group_id", "=", item.groupId)
        .where("n.confirmed", "=", 0)
        .where("n.user_id", "in", userIds)
        .execute();
      return rows.map((row) => ({ userId: row.user_id, notification: toNotification(row) }));
    },
    async unconfirmedOf(userId, kind, ids) {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("notifications")
        .select("item_id")
        .where("user_id", "=", userId)
        .where("item_kind", "=", kind)
        .where("item_id", "in", ids)
        .where("confirmed", "=", 0)
        .execute();
      return new Set(rows.map((row) => row.item_id));
    },
    async removeItems(kind, ids) {
      if (ids.length === 0) return;
      await db.deleteFrom("notifications").where("item_kind", "=", kind).where("item_id", "in", ids).execute();
      if (kind !== "GROUP") await mentions().removeItems(kind, ids);
    },
    async removeOfMember(userId, groupId) {
      await db.deleteFrom("notifications").where("user_id", "=", userId).where("group_id", "=", groupId).execute();
      await db.deleteFrom("like_notifications").where("user_id", "=", userId).where("group_id", "=", groupId).execute();
      await mentions().removeOfMember(userId, groupId);
    },
  };
}
