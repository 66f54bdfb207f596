import { element, utcTimestamp } from "../atom/build.js";
import type { ChatAttachment, ChatMember, ChatMessage } from "../domain/chat.js";
import { formatChatAttachmentId, formatChatMessageId, formatChatRoomId, formatPair } from "../domain/item-id.js";
import { NO_LIKES } from "../domain/reaction.js";
import type { MessagesView, MessageView } from "../services/chat/chat-message.js";
import type { RoomView } from "../services/chat/chat.js";
import type { MemberRoom } from "../store/queries/chat.js";
import {
  type Viewer,
  authorElement,
  categoryElements,
  feedDocument,
  itemEntry,
  summaryElement,
  titleElement,
  webLinkElements,
} from "./feed.js";
import type { ItemLinks } from "../domain/item-links.js";
import { notificationFeedHead } from "./notification.js";
import { changeParts, nextChangesLink } from "./changes.js";

/**
 * A room's pages: `{base_url}/mpChat/view?chatRoomId=1%23n`, byte for byte (chat bots find their
 * room by comparing the first link with the address a person pasted from the browser).
 */
export function chatRoomLinks(baseUrl: string, roomId: number): ItemLinks {
  const query = `chatRoomId=1%23${roomId}`;
  return { alternate: `${baseUrl}/mpChat/view?${query}`, mobile: `${baseUrl}/m/mpChat/view?${query}` };
}

/** A room's title as one member sees it: a DIRECT room is named after the other person. */
export function roomTitleFor(
  room: Pick<MemberRoom, "type" | "title">,
  members: readonly ChatMember[],
  viewerId: number,
): string {
  if (room.type === "THEME") return room.title;
  return members.find((member) => member.userId !== viewerId)?.name ?? room.title;
}

/**
 * A message as a comment entry, its id written from the viewer's side; `cblGood:set` and
 * `cblGood:count` as a comment's (in its order: after `summary`, before the files).
 */
export function chatMessageEntry(baseUrl: string, viewerId: number, message: ChatMessage): string {
  const id = formatChatMessageId(viewerId, message.roomId, message.number);
  const room = chatRoomLinks(baseUrl, message.roomId);
  const anchor = `#comment-${message.number}`;
  return (
    `<entry cbl:sequence="${message.number}">` +
    element("id", {}, id) +
    titleElement("") +
    webLinkElements({ alternate: room.alternate + anchor, mobile: room.mobile + anchor }) +
    categoryElements(id) +
    authorElement(message.authorName, message.authorId) +
    // As a comment's (present/comment.ts): an edit is its last change, `published` its writing.
    element("updated", {}, utcTimestamp(message.editedAt ?? message.createdAt)) +
    summaryElement(message.body) +
    element("cblGood:set", {}, String((message.likes ?? NO_LIKES).mine)) +
    element("cblGood:count", {}, String((message.likes ?? NO_LIKES).count)) +
    (message.attachments ?? []).map((file) => chatAttachmentElement(viewerId, file)).join("") +
    (message.editedAt === null ? "" : element("published", {}, utcTimestamp(message.createdAt))) +
    "</entry>"
  );
}

/** A message's file as a comment's is written (present/comment.ts), its id from the viewer's side. */
function chatAttachmentElement(viewerId: number, file: ChatAttachment): string {
  const id = formatChatAttachmentId(viewerId, file.roomId, file.messageNumber, file.position);
  const { fileName, size, contentType: type, position: number } = file;
  return element("cbl:attachment", { fileName, id, size, type, entryId: id, number });
}

/**
 * What a room entry shows besides the room: `embed` its newest messages as comments, `text` the
 * latest message's text as the summary (message text is comment contents: an application below the
 * `comments` level gets an empty summary, as for a room without messages).
 */
export interface RoomShow {
  readonly embed: boolean;
  readonly text: boolean;
}

/** A room entry in the order of docs/api.md "Chat". */
export function chatRoomEntry(baseUrl: string, viewerId: number, view: RoomView, { embed, text }: RoomShow): string {
  const { room, members, messages } = view;
  const id = formatChatRoomId(viewerId, room.id);
  const latest = messages[0];
  const rest =
    members.map((m) => element("cbl:who", { valueString: m.name, id: formatPair(m.userId) })).join("") +
    element("cblChat:type", {}, room.type) +
    element("cblChat:muted", {}, String(room.muted)) +
    (embed ? embeddedMessages(baseUrl, viewerId, id, view) : "");
  return itemEntry(
    {
      id,
      title: roomTitleFor(room, members, viewerId),
      links: chatRoomLinks(baseUrl, room.id),
      author: authorElement(room.creatorName, room.creatorId),
      updated: latest?.createdAt ?? room.createdAt,
      summary: text ? (latest?.body ?? "") : "",
    },
    rest,
  );
}

function embeddedMessages(baseUrl: string, viewerId: number, id: string, view: RoomView): string {
  const href = `${baseUrl}/api/comment/V2?entry=${encodeURIComponent(id)}`;
  return (
    `<cbl:comments><cbl:feedLink href="${href}"><feed>` +
    titleElement(roomTitleFor(view.room, view.members, viewerId)) +
    element("id", {}, id) +
    element("updated", {}, utcTimestamp(view.messages[0]?.createdAt ?? view.room.createdAt)) +
    view.messages.map((message) => chatMessageEntry(baseUrl, viewerId, message)).join("") +
    "</feed></cbl:feedLink></cbl:comments>"
  );
}

/** `GET|POST /api/mpChat/V2`: the caller's rooms, latest message first. */
export function chatRoomsFeed(
  baseUrl: string,
  viewer: Viewer,
  views: readonly RoomView[],
  show: RoomShow,
  now: number,
): string {
  const updated = views[0] ? (views[0].messages[0]?.createdAt ?? views[0].room.createdAt) : now;
  return feedDocument(
    { title: "Chat", id: `${baseUrl}/api/mpChat/V2`, alternate: `${baseUrl}/mpChat`, viewer, updated },
    views.map((view) => chatRoomEntry(baseUrl, viewer.id, view, show)),
  );
}

/** `GET /api/comment/V2?entry=<room>`: a page of a room's messages with older/newer flags. */
export function chatMessagesFeed(
  baseUrl: string,
  viewer: Viewer,
  view: MessagesView,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.messages,
    (message) => message.number,
    (message) => chatMessageEntry(baseUrl, viewer.id, message),
    (gone) => formatChatMessageId(viewer.id, view.room.id, gone.refNumber),
  );
  const extra =
    element("cblCmnt:olderCommentExists", {}, String(view.olderExists)) +
    element("cblCmnt:newerCommentExists", {}, String(view.newerExists)) +
    nextChangesLink(nextChanges) +
    tombstones;
  return feedDocument(
    {
      title: roomTitleFor(view.room, view.members, viewer.id),
      id: formatChatRoomId(viewer.id, view.room.id),
      alternate: chatRoomLinks(baseUrl, view.room.id).alternate,
      viewer,
      updated: view.messages[0]?.createdAt ?? view.room.activityAt,
      extra,
    },
    entries,
  );
}

/** The answer to a push: a feed of the one message, from the pusher's side, titled as the room list titles the room. */
export function chatPushFeed(baseUrl: string, viewer: Viewer, view: MessageView): string {
  return feedDocument(
    {
      title: roomTitleFor(view.room, view.members, viewer.id),
      id: formatChatRoomId(viewer.id, view.room.id),
      alternate: chatRoomLinks(baseUrl, view.room.id).alternate,
      viewer,
      updated: view.message.createdAt,
    },
    [chatMessageEntry(baseUrl, viewer.id, view.message)],
  );
}

/**
 * An M_CHAT notification: the room from the member's side, its latest message as `summary` (when
 * `text`: see {@link RoomShow}) and `author` (the creator while there is none), then
 * `cbl:confirmed`, the unconfirmed count, the latest message's id and `cblNtf:icon` M_CHAT.
 */
export function chatNotificationEntry(baseUrl: string, viewerId: number, view: RoomView, text: boolean): string {
  const { room, members } = view;
  const latest = view.messages[0];
  const id = formatChatRoomId(viewerId, room.id);
  return itemEntry(
    {
      id,
      title: roomTitleFor(room, members, viewerId),
      links: chatRoomLinks(baseUrl, room.id),
      author: latest
        ? authorElement(latest.authorName, latest.authorId)
        : authorElement(room.creatorName, room.creatorId),
      updated: latest?.createdAt ?? room.createdAt,
      summary: text ? (latest?.body ?? "") : "",
    },
    element("cbl:confirmed", {}, String(room.unconfirmed === 0)) +
      element("cbl:unconfirmedCommentCount", {}, String(room.unconfirmed)) +
      (latest ? element("cblNtf:commentId", {}, formatChatMessageId(viewerId, room.id, latest.number)) : "") +
      element("cblNtf:icon", {}, "M_CHAT"),
  );
}

/** `GET|POST /api/notification/V2?category=M_CHAT`: the caller's chat notifications. */
export function chatNotificationsFeed(
  baseUrl: string,
  viewer: Viewer,
  views: readonly RoomView[],
  text: boolean,
  now: number,
): string {
  const updated =
    views.reduce((max, view) => Math.max(max, view.messages[0]?.createdAt ?? view.room.createdAt), 0) || now;
  return feedDocument(
    notificationFeedHead(baseUrl, viewer, updated),
    views.map((view) => chatNotificationEntry(baseUrl, viewer.id, view, text)),
  );
}
