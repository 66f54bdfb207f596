import type { FastifyReply } from "fastify";
import type { Context } from "../../../context.js";
import { type Actor, requireAccess } from "../../../domain/access.js";
import { chatMessagesFeed } from "../../../present/chat.js";
import { listMessages } from "../../../services/chat/chat-message.js";
import { viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { ChatMessagesRead } from "./comment.request.js";

/** `GET /api/comment/V2?entry=<chat room id>`: the room's messages, as comments (`comments` level). */
export async function sendChatMessages(
  context: Context,
  actor: Actor,
  input: ChatMessagesRead,
  reply: FastifyReply,
): Promise<FastifyReply> {
  requireAccess(actor, "comments");
  const view = await listMessages(context, actor, input);
  return sendFeed(reply, chatMessagesFeed(context.baseUrl(), viewerOf(actor), view));
}
