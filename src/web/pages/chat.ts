// Chat in the browser: the room list (`/mpChat`, unread counts, a new THEME room), a conversation
// (`/mpChat/view?chatRoomId=1%23n`: the address every feed links a room to), its new messages
// (`/mpChat/messages`, what the page's script fetches live or every 10 seconds) and the forms.
import type { FastifyInstance } from "fastify";
import type { ChatMessage } from "../../domain/chat.js";
import { queryValue } from "../../http-kit/query.js";
import { roomTitleFor } from "../../present/chat.js";
import { openDirectRoom, writeRoom } from "../../services/chat/chat.js";
import { messagesSince, openConversation, readChatHome } from "../../services/chat/chat-page.js";
import { formatChatAttachmentId } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { NO_LIKES } from "../../domain/reaction.js";
import { type PageRequest, type WebContext, pageNotFound, registerPage } from "../page.js";
import { readPageNumber } from "../paging.js";
import { registerChatForms } from "./chat-forms.js";
import { roomOfKey, roomPath } from "./chat-paths.js";
import { PREVIEWABLE, downloadHref } from "./item-view.js";

/** `1#n` (from `chatRoomId`, in the query or the form) -> n. @throws NotFoundError */
function roomOf(page: PageRequest): number {
  return roomOfKey(page.form.get("chatRoomId") ?? queryValue(page.query, "chatRoomId"));
}

function numbersOf(page: PageRequest, name: string): number[] {
  return page.form
    .getAll(name)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

/** A message as the list shows it: its files (images with a preview) and its likes as the viewer sees them. */
function messageRow(message: ChatMessage, viewerId: number) {
  const attachments = (message.attachments ?? []).map((file) => {
    const id = formatChatAttachmentId(viewerId, file.roomId, file.messageNumber, file.position);
    return {
      name: file.fileName,
      size: file.size,
      href: downloadHref(id),
      previewHref: PREVIEWABLE.has(file.contentType) ? downloadHref(id, { inline: true }) : undefined,
    };
  });
  const likes = message.likes ?? NO_LIKES;
  return { ...message, mine: message.authorId === viewerId, anchor: `comment-${message.number}`, attachments, likes };
}

/** Every chat page and form. */
export function registerChatPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/mpChat", {
    async GET(page) {
      const home = await readChatHome(web, page.actor, readPageNumber(page.query).fetch);
      const viewerId = page.actor.user.id;
      return page.render("chat-rooms", {
        title: page.chrome.t("chat.title"),
        section: "chat",
        rooms: home.rooms.map((view) => ({
          href: page.chrome.u(roomPath(view.room.id)),
          title: roomTitleFor(view.room, view.members, viewerId),
          type: view.room.type,
          unread: view.room.unconfirmed,
          latest: view.messages[0],
          updatedAt: view.messages[0]?.createdAt ?? view.room.createdAt,
        })),
        contacts: home.contacts,
        createAction: page.chrome.u("/mpChat"),
        directAction: page.chrome.u("/mpChat/direct"),
      });
    },
    async POST(page) {
      const memberIds = numbersOf(page, "member");
      const view = await writeRoom(web, page.actor, {
        op: "create",
        type: "THEME",
        title: page.form.get("title") ?? "",
        memberIds,
      });
      return page.redirect(roomPath(view.room.id));
    },
  });
  registerPage(app, web, "/mpChat/direct", {
    async POST(page) {
      const [other] = numbersOf(page, "user");
      if (other === undefined) throw pageNotFound();
      return page.redirect(roomPath(await openDirectRoom(web, page.actor, other)));
    },
  });
  registerPage(app, web, "/mpChat/view", { GET: (page) => conversationPage(web, page) });
  registerPage(app, web, "/mpChat/messages", {
    async GET(page) {
      const roomId = roomOf(page);
      const after = Number(queryValue(page.query, "after") ?? "0");
      const messages = await messagesSince(web, page.actor, roomId, Number.isSafeInteger(after) ? after : 0);
      return page.render("chat-new", {
        title: page.chrome.t("chat.newMessages"),
        section: "chat",
        roomHref: page.chrome.u(roomPath(roomId)),
        messages: messages.map((m) => messageRow(m, page.actor.user.id)),
        deleteAction: page.chrome.u("/mpChat/delete"),
        editAction: page.chrome.u("/mpChat/edit"),
        likeAction: page.chrome.u("/mpChat/like"),
        roomKey: `1#${roomId}`,
      });
    },
  });
  registerChatForms(app, web);
}

async function conversationPage(web: WebContext, page: PageRequest) {
  const roomId = roomOf(page);
  const { view, messages, contacts } = await openConversation(web, page.actor, roomId);
  const viewerId = page.actor.user.id;
  const memberIds = new Set(view.members.map((m) => m.userId));
  const title = roomTitleFor(view.room, view.members, viewerId);
  return page.render("chat-room", {
    title,
    section: "chat",
    feed: {
      title,
      href: `${web.baseUrl()}/api/comment/V2?entry=${encodeURIComponent(`MYPAGE,1:${viewerId},MP_CHAT,1:${roomId}`)}`,
    },
    room: view.room,
    roomKey: `1#${roomId}`,
    roomId,
    members: view.members,
    messages: messages.map((m) => messageRow(m, viewerId)),
    lastNumber: messages.at(-1)?.number ?? 0,
    addable: view.room.type === "THEME" ? contacts.filter((c) => !memberIds.has(c.id)) : [],
    sendAction: page.chrome.u("/mpChat/send"),
    deleteAction: page.chrome.u("/mpChat/delete"),
    editAction: page.chrome.u("/mpChat/edit"),
    likeAction: page.chrome.u("/mpChat/like"),
    maxFiles: LIMITS.filesPerComment,
    maxFileBytes: LIMITS.fileMaxBytes,
    maxTotalBytes: LIMITS.multipartMaxBytes,
    muteAction: page.chrome.u("/mpChat/mute"),
    hooksHref: page.chrome.u(`/mpChat/hooks?chatRoomId=1%23${roomId}`),
    updateAction: page.chrome.u("/mpChat/update"),
    newHref: page.chrome.u(`/mpChat/messages?chatRoomId=1%23${roomId}`),
    backHref: page.chrome.u("/mpChat"),
  });
}
