import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { favoritesFeed, reactionWriteFeed } from "../../../present/reaction.js";
import { listFavorites, setFavorite } from "../../../services/item/reaction.js";
import { readItemToggle } from "../../atom-request.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { readFavorites } from "../../../services/item/favorite-changes.js";
import { nextChangesHref } from "../../changes-link.js";
import { readFavoritesQuery } from "./star.request.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";

/** `GET|POST /api/star/V2`: the caller's favorites; add and remove. Favorites are the user's own state: `read` level. */
export function registerStar(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/star/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readFavoritesQuery(request.query as QueryValues);
      requireAccess(actor, "read");
      if ("ref" in input) {
        const items = await listFavorites(context, actor, input);
        return sendFeed(reply, favoritesFeed(context.baseUrl(), viewerOf(actor), { items }, clock.now()));
      }
      const view = await readFavorites(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, favoritesFeed(context.baseUrl(), viewerOf(actor), view, clock.now(), changes));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readItemToggle(readXmlBody(request), "favorite");
      requireAccess(actor, "read");
      const item = await setFavorite(context, actor, input);
      return sendFeed(reply, reactionWriteFeed(context.baseUrl(), viewerOf(actor), item, "STAR", clock.now()));
    },
  });
}
