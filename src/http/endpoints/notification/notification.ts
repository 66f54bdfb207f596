import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { notificationsFeed } from "../../../present/notification.js";
import { confirmNotifications, listNotifications } from "../../../services/notification/notification.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { confirmChat, isChatCategory, sendChatNotifications } from "./chat-notification.js";
import { readConfirmCategory, readConfirmation, readNotificationQuery } from "./notification.request.js";

/**
 * `GET|POST /api/notification/V2`: the caller's update notifications; confirming up to 100 of
 * them. Notifications are the user's own state: `read` level (docs/api.md "Access levels").
 */
export function registerNotification(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(
    app,
    "/api/notification/V2",
    {
      async GET(request, reply) {
        const actor = await authenticateRequest(context, request);
        if (isChatCategory(request.query as QueryValues)) return sendChatNotifications(context, actor, request, reply);
        const input = readNotificationQuery(request.query as QueryValues);
        requireAccess(actor, "read");
        const view = await listNotifications(context, actor, input);
        return sendFeed(
          reply,
          notificationsFeed(context.baseUrl(), viewerOf(actor), view, context.config.locale, clock.now()),
        );
      },
      async POST(request, reply) {
        const actor = await authenticateRequest(context, request);
        if (isChatCategory(request.query as QueryValues)) return confirmChat(context, actor, request, reply);
        const input = readConfirmation(readXmlBody(request));
        const mentions = readConfirmCategory(request.query as QueryValues) === "MENTION";
        requireAccess(actor, "read");
        const view = await confirmNotifications(context, actor, mentions ? { ids: [], mentionIds: input.ids } : input);
        return sendFeed(
          reply,
          notificationsFeed(context.baseUrl(), viewerOf(actor), view, context.config.locale, clock.now()),
        );
      },
    },
    // Chat notifications change with no change version (docs/architecture.md): never cached.
    { feedCacheable: (query) => !isChatCategory(query) },
  );
}
