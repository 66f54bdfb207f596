// Notifications (`/notifications`, the notification feed's alternate link) and like notifications
// (`/notifications/likes`): newest first, unread only or all, one group or all; confirm one, or
// every one shown.
import type { FastifyInstance } from "fastify";
import {
  type ItemRef,
  formatChatMessageId,
  formatCommentId,
  formatContentId,
  formatGroupId,
  formatPair,
  parseGroupParameter,
  parseItemId,
} from "../../domain/item-id.js";
import {
  type ChatLikeNotification,
  type LikeNotification,
  type Notification,
  parseLikeTarget,
} from "../../domain/notification.js";
import { queryValue } from "../../http-kit/query.js";
import { confirmLikeNotifications, listLikeNotifications } from "../../services/notification/like-notification.js";
import { confirmNotifications, listNotifications } from "../../services/notification/notification.js";
import type { Chrome } from "../chrome.js";
import type { MessageKey } from "../i18n/en.js";
import { type PageRequest, type WebContext, pageNotFound, registerPage } from "../page.js";
import { paged, readPageNumber, withQuery } from "../paging.js";
import { itemPath } from "./item-view.js";
import { notificationWords } from "./notification-words.js";

const AREA_TEXT: Readonly<Record<Notification["item"]["kind"], MessageKey>> = {
  BOARD: "nav.board",
  TASK: "nav.tasks",
  CABINET: "nav.files",
  GW_SCHEDULE: "nav.events",
  GROUP: "nav.members",
};

/** `/notifications`, `/notifications/likes` and their confirm forms. */
export function registerNotificationPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/notifications", { GET: (page) => notificationsPage(web, page) });
  registerPage(app, web, "/notifications/confirm", {
    async POST(page) {
      await confirmNotifications(web, page.actor, { ids: idsOf(page), mentionIds: idsOf(page, "mention") });
      return page.redirect(returnTo(page, "/notifications"));
    },
  });
  registerPage(app, web, "/notifications/likes", { GET: (page) => likesPage(web, page) });
  registerPage(app, web, "/notifications/likes/confirm", {
    async POST(page) {
      await confirmLikeNotifications(web, page.actor, { ids: formIds(page, "id").map(parseLikeTarget) });
      return page.redirect(returnTo(page, "/notifications/likes"));
    },
  });
}

/** Which list a page shows: unread only unless `?show=all`, one group with `?group=1:n`. */
function listFilters(page: PageRequest): { all: boolean; groupId: number | null } {
  const group = queryValue(page.query, "group");
  const groupId = group === undefined || group === "" ? null : parseGroupParameter(group);
  if (groupId === undefined) throw pageNotFound();
  return { all: queryValue(page.query, "show") === "all", groupId };
}

async function notificationsPage(web: WebContext, page: PageRequest) {
  const { all, groupId } = listFilters(page);
  const request = readPageNumber(page.query);
  const view = await listNotifications(web, page.actor, {
    unconfirmedOnly: !all,
    includeRuledOut: false,
    embedAttachments: false,
    category: null,
    groupId,
    page: request.fetch,
  });
  const group = groupId === null ? undefined : formatPair(groupId);
  const here = (extra: Record<string, string | number | undefined>) =>
    page.chrome.u(withQuery("/notifications", { show: all ? "all" : undefined, group, ...extra }));
  const items = paged(
    view.notifications.map((n) => notificationRow(page.chrome, n, page.actor.user.id)),
    request,
    (n) => here({ page: n }),
  );
  return page.render("notifications", {
    title: page.chrome.t("notifications.title"),
    section: "notifications",
    feed: { title: page.chrome.t("notifications.title"), href: `${web.baseUrl()}/api/notification/V2` },
    tabs: tabs(page.chrome, "/notifications", all, group),
    groupName: groupId === null ? undefined : view.notifications[0]?.groupName,
    items,
    confirmAction: page.chrome.u("/notifications/confirm"),
    returnPath: withQuery("/notifications", { show: all ? "all" : undefined, group }),
    unconfirmedIds: items.items.filter((item) => !item.confirmed && !item.mention).map((item) => item.id),
    unconfirmedMentionIds: items.items.filter((item) => !item.confirmed && item.mention).map((item) => item.id),
  });
}

function tabs(chrome: Chrome, path: string, all: boolean, group: string | undefined) {
  return [
    { href: chrome.u(withQuery(path, { group })), label: chrome.t("notifications.unconfirmedOnly"), current: !all },
    { href: chrome.u(withQuery(path, { show: "all", group })), label: chrome.t("notifications.all"), current: all },
  ];
}

function notificationRow(chrome: Chrome, notification: Notification, readerId: number) {
  const { item } = notification;
  const id = item.kind === "GROUP" ? formatGroupId(item.groupId) : formatContentId(item);
  const path =
    item.kind === "GROUP"
      ? `/g/${formatPair(item.groupId)}/members`
      : notification.commentNumber !== null && !notification.commentDeleted
        ? `${itemPath(item)}#comment-${notification.commentNumber}`
        : itemPath(item);
  return {
    id,
    mention: notification.event === "mention",
    title: notification.title,
    href: chrome.u(path),
    groupName: notification.groupName,
    area: chrome.t(AREA_TEXT[item.kind]),
    what: notificationWords(chrome, notification, readerId),
    comments: notification.unconfirmedComments,
    confirmed: notification.confirmed,
    updatedAt: notification.updatedAt,
  };
}

async function likesPage(web: WebContext, page: PageRequest) {
  const { all } = listFilters(page);
  const request = readPageNumber(page.query);
  const view = await listLikeNotifications(web, page.actor, { unconfirmedOnly: !all, page: request.fetch });
  const here = (n: number) =>
    page.chrome.u(withQuery("/notifications/likes", { show: all ? "all" : undefined, page: n }));
  const items = paged(
    view.notifications.map((n) => likeRow(page.chrome, n)),
    request,
    here,
  );
  return page.render("like-notifications", {
    title: page.chrome.t("likes.title"),
    section: "likes",
    feed: { title: page.chrome.t("likes.title"), href: `${web.baseUrl()}/api/goodNotification/V2` },
    tabs: tabs(page.chrome, "/notifications/likes", all, undefined),
    total: view.totalCount,
    items,
    confirmAction: page.chrome.u("/notifications/likes/confirm"),
    returnPath: withQuery("/notifications/likes", { show: all ? "all" : undefined }),
    unconfirmedIds: items.items.filter((item) => !item.confirmed).map((item) => item.id),
  });
}

function likeRow(chrome: Chrome, notification: LikeNotification) {
  if (notification.kind === "chat") return chatLikeRow(chrome, notification);
  const { parent, commentNumber } = notification.item;
  const isComment = commentNumber !== 0;
  return {
    id: isComment ? formatCommentId(parent, commentNumber) : formatContentId(parent),
    title: isComment ? chrome.t("favorites.comment", { title: notification.title }) : notification.title,
    href: chrome.u(isComment ? `${itemPath(parent)}#comment-${commentNumber}` : itemPath(parent)),
    groupName: notification.groupName,
    likers: notification.likers.map((liker) => liker.name).join(", "),
    excerpt: [...notification.body.replace(/\s+/g, " ").trim()].slice(0, 140).join(""),
    confirmed: notification.confirmed,
    updatedAt: notification.updatedAt,
  };
}

/** A chat message's like notification: the message in its room's page, no group. */
function chatLikeRow(chrome: Chrome, notification: ChatLikeNotification) {
  const { roomId, messageNumber } = notification.message;
  return {
    id: formatChatMessageId(notification.ownerId, roomId, messageNumber),
    title: notification.title,
    href: chrome.u(`/mpChat/view?chatRoomId=1%23${roomId}#comment-${messageNumber}`),
    groupName: "",
    likers: notification.likers.map((liker) => liker.name).join(", "),
    excerpt: [...notification.body.replace(/\s+/g, " ").trim()].slice(0, 140).join(""),
    confirmed: notification.confirmed,
    updatedAt: notification.updatedAt,
  };
}

/** The ids a form sends under `name` and `name[]`. */
function formIds(page: PageRequest, name: string): string[] {
  return [...page.form.getAll(name), ...page.form.getAll(`${name}[]`)];
}

/**
 * The ids of a confirm form (`id` for one, `id[]` for every one shown; `mention`, `mention[]` for
 * mention notifications), as the services take them; unparseable ids are ignored, as the API does.
 */
function idsOf(page: PageRequest, name: "id" | "mention" = "id"): (ItemRef | undefined)[] {
  return formIds(page, name).map((id) => parseItemId(id));
}

/** Back to the list the form was on: a path of this site only. */
function returnTo(page: PageRequest, fallback: string): string {
  const back = page.form.get("back") ?? "";
  return back.startsWith(`${fallback}`) && !back.includes("//") ? back : fallback;
}
