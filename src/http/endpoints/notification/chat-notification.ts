import type { FastifyReply, FastifyRequest } from "fastify";
import type { Context } from "../../../context.js";
import type { Actor } from "../../../domain/access.js";
import { levelAllows, requireAccess } from "../../../domain/access.js";
import { chatNotificationsFeed } from "../../../present/chat.js";
import { confirmChatNotifications, listChatNotifications } from "../../../services/chat/chat-notification.js";
import { viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readPage } from "../../../http-kit/parameters.js";
import { readXmlBody } from "../../xml-body.js";
import { readChatConfirmation } from "./notification.request.js";

/** True for `category=M_CHAT`: chat notifications live beside the others, in the chat tables. */
export function isChatCategory(query: QueryValues): boolean {
  return queryValue(query, "category")?.trim() === "M_CHAT";
}

/** `GET /api/notification/V2?category=M_CHAT`: `unconfirmed`, `include-rule-out` (muted rooms) and paging. */
export async function sendChatNotifications(
  context: Context,
  actor: Actor,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const query = request.query as QueryValues;
  const input = {
    unconfirmedOnly: queryFlag(query, "unconfirmed"),
    includeRuledOut: queryFlag(query, "include-rule-out"),
    page: readPage(query),
  };
  requireAccess(actor, "read");
  const views = await listChatNotifications(context, actor, input);
  return sendFeed(
    reply,
    chatNotificationsFeed(context.baseUrl(), viewerOf(actor), views, readsText(actor), context.clock.now()),
  );
}

/** `POST /api/notification/V2?category=M_CHAT`: confirms rooms; one entry per requested room of the caller's. */
export async function confirmChat(
  context: Context,
  actor: Actor,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const ids = readChatConfirmation(readXmlBody(request));
  requireAccess(actor, "read");
  const views = await confirmChatNotifications(context, actor, ids);
  return sendFeed(
    reply,
    chatNotificationsFeed(context.baseUrl(), viewerOf(actor), views, readsText(actor), context.clock.now()),
  );
}

/** Message text is comment contents: below the `comments` level a notification's summary stays empty. */
function readsText(actor: Actor): boolean {
  return levelAllows(actor.app.accessLevel, "comments");
}
