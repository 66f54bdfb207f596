// The chat page's forms: send (text and files, multipart), like, delete, mute, rename and add
// members. Each answers with a redirect back to the conversation.
import type { FastifyInstance } from "fastify";
import { receiveFilesForm } from "../files-form.js";
import { refuseNonXmlCharacters } from "../../http-kit/form.js";
import { writeRoom } from "../../services/chat/chat.js";
import { setChatLike } from "../../services/chat/chat-like.js";
import { deleteMessage, editMessage, pushMessage } from "../../services/chat/chat-message.js";
import { openConversation } from "../../services/chat/chat-page.js";
import { type PageRequest, type WebContext, pageNotFound, registerPage, requireCsrf } from "../page.js";
import { roomOfKey, roomPath } from "./chat-paths.js";

const SEND_TEXT_PARTS: ReadonlySet<string> = new Set(["_csrf", "chatRoomId", "text"]);

function roomOf(page: PageRequest): number {
  return roomOfKey(page.form.get("chatRoomId") ?? undefined);
}

function numbersOf(page: PageRequest, name: string): number[] {
  return page.form
    .getAll(name)
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);
}

function messageNumberOf(page: PageRequest): number {
  const [number] = numbersOf(page, "number");
  if (number === undefined) throw pageNotFound();
  return number;
}

/** The conversation's forms. */
export function registerChatForms(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/mpChat/send", { POST: (page) => sendMessage(web, page) }, { multipart: true });
  registerPage(app, web, "/mpChat/like", {
    async POST(page) {
      const roomId = roomOf(page);
      const messageNumber = messageNumberOf(page);
      await setChatLike(web, page.actor, { message: { roomId, messageNumber }, on: page.form.get("on") === "true" });
      return page.redirect(`${roomPath(roomId)}#comment-${messageNumber}`);
    },
  });
  registerPage(app, web, "/mpChat/edit", {
    async POST(page) {
      const roomId = roomOf(page);
      const number = messageNumberOf(page);
      await editMessage(web, page.actor, { roomId, number, text: page.form.get("text") ?? undefined });
      return page.redirect(`${roomPath(roomId)}#comment-${number}`);
    },
  });
  registerPage(app, web, "/mpChat/delete", {
    async POST(page) {
      const roomId = roomOf(page);
      await deleteMessage(web, page.actor, { roomId, number: messageNumberOf(page) });
      return page.redirect(roomPath(roomId));
    },
  });
  registerPage(app, web, "/mpChat/mute", {
    async POST(page) {
      const roomId = roomOf(page);
      await writeRoom(web, page.actor, { op: "mute", roomId, muted: page.form.get("muted") === "true" });
      return page.redirect(roomPath(roomId));
    },
  });
  registerPage(app, web, "/mpChat/update", {
    async POST(page) {
      const roomId = roomOf(page);
      const added = numbersOf(page, "member");
      const title = page.form.get("title") ?? undefined;
      const current = (await openConversation(web, page.actor, roomId)).view.members.map((m) => m.userId);
      const memberIds = added.length === 0 ? undefined : [...current, ...added];
      await writeRoom(web, page.actor, { op: "update", roomId, title, memberIds });
      return page.redirect(roomPath(roomId));
    },
  });
}

/**
 * The send form: multipart with `_csrf` first, `chatRoomId`, `text` and up to 10 `files` (the token
 * is checked before the first file is stored), as the comment form; a plain form works too.
 */
async function sendMessage(web: WebContext, page: PageRequest) {
  const csrf = page.session.csrf;
  const received = await receiveFilesForm(web, page, SEND_TEXT_PARTS);
  try {
    requireCsrf(received.text.get("_csrf"), csrf);
    refuseNonXmlCharacters(received.text);
    const roomId = roomOfKey(received.text.get("chatRoomId"));
    await pushMessage(web, page.actor, { roomId, text: received.text.get("text") ?? "", files: received.files });
    return page.redirect(`${roomPath(roomId)}#chat-form`);
  } finally {
    await received.discard();
  }
}
