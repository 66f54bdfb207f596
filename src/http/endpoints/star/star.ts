import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { favoritesFeed, reactionWriteFeed } from "../../../present/reaction.js";
import { listFavorites, setFavorite } from "../../../services/reaction.js";
import { readItemId, readItemToggle } from "../../atom-request.js";
import { type Context, authenticateRequest, sendFeed, viewerOf } from "../../context.js";
import { type QueryValues, queryValue, readPage } from "../../query.js";
import { registerEndpoint } from "../../route.js";
import { readXmlBody } from "../../xml-body.js";

/** `GET|POST /api/star/V2`: the caller's favorites; add and remove. Favorites are the user's own state: `read` level. */
export function registerStar(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/star/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const id = queryValue(query, "id");
      // With id, paging is ignored (interface.md), bad paging values included.
      const input = id === undefined ? { page: readPage(query) } : { ref: readItemId(id, "id") };
      requireAccess(actor, "read");
      const items = await listFavorites(context, actor, input);
      return sendFeed(reply, favoritesFeed(context.baseUrl(), viewerOf(actor), items, clock.now()));
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
