import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { likeNotificationsFeed } from "../../../present/like-notification.js";
import { confirmLikeNotifications, listLikeNotifications } from "../../../services/notification/like-notification.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryFlag } from "../../../http-kit/query.js";
import { readPage } from "../../../http-kit/parameters.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { parseLikeTarget } from "../../../domain/notification.js";
import { confirmedIds } from "../notification/notification.request.js";

/**
 * `GET|POST /api/goodNotification/V2`: likes of the caller's items, one entry per item with every
 * liker; confirming up to 100 of them. The user's own state: `read` level.
 */
export function registerGoodNotification(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/goodNotification/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const input = { unconfirmedOnly: queryFlag(query, "unconfirmed"), page: readPage(query) };
      requireAccess(actor, "read");
      const view = await listLikeNotifications(context, actor, input);
      return sendFeed(reply, likeNotificationsFeed(context.baseUrl(), viewerOf(actor), view, clock.now()));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const ids = confirmedIds(readXmlBody(request)).map((id) => (id === undefined ? undefined : parseLikeTarget(id)));
      const input = { ids };
      requireAccess(actor, "read");
      const view = await confirmLikeNotifications(context, actor, input);
      return sendFeed(reply, likeNotificationsFeed(context.baseUrl(), viewerOf(actor), view, clock.now()));
    },
  });
}
