import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { favoritesFeed, reactionWriteFeed } from "../../../present/reaction.js";
import { listFavorites, setFavorite } from "../../../services/item/reaction.js";
import { readItemId } from "../../../http-kit/parameters.js";
import { readItemToggle } from "../../atom-request.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import { readPage } from "../../../http-kit/parameters.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";

/** `GET|POST /api/star/V2`: the caller's favorites; add and remove. Favorites are the user's own state: `read` level. */
export function registerStar(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/star/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const id = queryValue(query, "id");
      // With id, paging is ignored (docs/api.md "Favorites"), bad paging values included.
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
