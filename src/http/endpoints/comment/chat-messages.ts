import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../../../context.js";
import { type Actor, requireAccess } from "../../../domain/access.js";
import { chatMessagesFeed } from "../../../present/chat.js";
import { listMessages } from "../../../services/chat/chat-message.js";
import { viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { nextChangesHref, readChangesSince } from "../../changes-link.js";
import type { ChatMessagesRead } from "./comment.request.js";

/**
 * `GET /api/comment/V2?entry=<chat room id>`: the room's messages, as comments (`comments` level),
 * with `changes-since` (docs/api.md "Delta sync").
 */
export async function sendChatMessages(
  context: Context,
  actor: Actor,
  input: ChatMessagesRead,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const changesSince = readChangesSince(request.query as QueryValues, input.page);
  requireAccess(actor, "comments");
  const view = await listMessages(context, actor, { ...input, changesSince });
  const changes = nextChangesHref(context.baseUrl(), request, view.changes);
  return sendFeed(reply, chatMessagesFeed(context.baseUrl(), viewerOf(actor), view, changes));
}
