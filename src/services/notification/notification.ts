import { type Actor, levelAllows } from "../../domain/access.js";
import type { Attachment } from "../../domain/attachment.js";
import type { CabinetFile } from "../../domain/file.js";
import type { ContentRef, ItemRef } from "../../domain/item-id.js";
import {
  type Notification,
  type NotificationCategory,
  type NotificationFilter,
  type NotificationItem,
  itemKindOfCategory,
  notificationItemOf,
  requireConfirmableCount,
} from "../../domain/notification.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import { logRead } from "../unread/unread.js";

/** A file a notification entry embeds (`embed-attachment=true`). */
export type NotificationAttachment =
  | {
      readonly kind: "comment";
      readonly parent: ContentRef;
      readonly commentNumber: number;
      readonly attachment: Attachment;
    }
  | { readonly kind: "file"; readonly file: CabinetFile };

/** Notifications as the caller sees them, with their files when asked for. */
export interface NotificationsView {
  readonly notifications: readonly Notification[];
  /** Files per notification (same order as `notifications`); undefined when not asked for. */
  readonly attachments: ReadonlyArray<readonly NotificationAttachment[]> | undefined;
}

/** What `GET /api/notification/V2` asks for. */
export interface NotificationQuery {
  readonly unconfirmedOnly: boolean;
  /** Include groups the caller set to "do not notify" (`include-rule-out=true`). */
  readonly includeRuledOut: boolean;
  readonly embedAttachments: boolean;
  readonly category: NotificationCategory | null;
  readonly groupId: number | null;
  readonly page: PageWindow;
}

/**
 * A page of the caller's notifications, newest first.
 * @throws NotFoundError GROUP_NOT_FOUND, ForbiddenError GROUP_NOT_JOINED for a `group` filter
 */
export async function listNotifications(
  ctx: ServiceContext,
  actor: Actor,
  input: NotificationQuery,
): Promise<NotificationsView> {
  return ctx.store.read(async (tx) => {
    if (input.groupId !== null) await requireGroupMember(tx, actor, input.groupId);
    const userId = actor.user.id;
    const itemKind = input.category === null ? null : itemKindOfCategory(input.category);
    // Categories of areas this server does not hold (schedules, chat) have no notifications.
    if (input.category !== null && input.category !== "MENTION" && itemKind === null)
      return { notifications: [], attachments: input.embedAttachments ? [] : undefined };
    const filter: NotificationFilter = {
      unconfirmedOnly: input.unconfirmedOnly,
      mentions: input.category === null ? "with" : input.category === "MENTION" ? "only" : "without",
      itemKind,
      groupId: input.groupId,
      // Muting hides a group's notifications, never a mention of the caller (listed apart).
      hiddenGroupIds: input.includeRuledOut ? [] : await tx.notifications.mutedGroupIds(userId),
    };
    const notifications = await tx.notifications.list(userId, filter, input.page);
    return {
      notifications,
      attachments: input.embedAttachments ? await attachmentsOf(tx, actor, notifications) : undefined,
    };
  });
}

/**
 * Confirms the caller's notifications of these ids: each unconfirmed one becomes confirmed (its
 * unconfirmed comment count 0) and its item's comments count as seen for the comment feed's
 * `unconfirmed=true`. The answer holds one notification per requested id the caller has, whether
 * it was unconfirmed or already confirmed (a bot posts the same id every few seconds and expects
 * it back each time); unknown ids are left out.
 * `mentionIds` name mention notifications to confirm the same way (the API's category MENTION; the
 * web's list confirms both kinds at once); at most 100 ids in all.
 * @throws ValidationError TOO_MANY_ENTRIES (more than 100 ids: nothing is confirmed)
 */
export async function confirmNotifications(
  ctx: ServiceContext,
  actor: Actor,
  input: { ids: readonly (ItemRef | undefined)[]; mentionIds?: readonly (ItemRef | undefined)[] },
): Promise<NotificationsView> {
  const mentionIds = input.mentionIds ?? [];
  requireConfirmableCount(input.ids.length + mentionIds.length);
  const items = uniqueItems(input.ids);
  const mentioned = uniqueItems(mentionIds).filter((item): item is ContentRef => item.kind !== "GROUP");
  return ctx.store.transaction(async (tx) => {
    const at = ctx.clock.now();
    const mentions = await tx.mentions.confirm(actor.user.id, mentioned, at);
    const confirmed = await tx.notifications.confirm(actor.user.id, items, at);
    // Comments count as seen from the confirmation that changed the notification (its last access is
    // now); one confirmed before recorded them then, and a bot re-posting every few seconds writes nothing.
    const parents = confirmed
      .filter((notification) => notification.lastAccessAt === at)
      .map((notification) => notification.item)
      .filter((item): item is ContentRef => item.kind !== "GROUP");
    await tx.commentReads.confirmMany(actor.user.id, parents, at);
    // The header's count of every tab and browser of the caller's changes only if one changed here.
    if ([...mentions, ...confirmed].some((notification) => notification.lastAccessAt === at))
      await logRead(tx, actor.user.id, "notification", at);
    return { notifications: [...mentions, ...confirmed], attachments: undefined };
  });
}

function uniqueItems(ids: readonly (ItemRef | undefined)[]): NotificationItem[] {
  const seen = new Map<string, NotificationItem>();
  for (const ref of ids) {
    const item = ref && notificationItemOf(ref);
    if (item) seen.set(`${item.kind}:${item.groupId}:${item.id}`, item);
  }
  return [...seen.values()];
}

/**
 * The files of each notification: a shared file's current version, and the files of the comment
 * that caused it. Comment files are comment contents: only for applications that may read comments.
 */
async function attachmentsOf(
  tx: Tx,
  actor: Actor,
  notifications: readonly Notification[],
): Promise<NotificationAttachment[][]> {
  const mayReadComments = levelAllows(actor.app.accessLevel, "comments");
  const out: NotificationAttachment[][] = [];
  for (const notification of notifications) {
    const files: NotificationAttachment[] = [];
    const { item } = notification;
    if (item.kind === "CABINET") {
      const file = await tx.files.findById(item.id);
      if (file) files.push({ kind: "file", file });
    }
    if (
      item.kind !== "GROUP" &&
      mayReadComments &&
      notification.commentNumber !== null &&
      !notification.commentDeleted
    ) {
      const comment = await tx.comments.find(item, notification.commentNumber);
      for (const attachment of comment ? await tx.attachments.listOf([comment.id]) : []) {
        files.push({ kind: "comment", parent: item, commentNumber: notification.commentNumber, attachment });
      }
    }
    out.push(files);
  }
  return out;
}
