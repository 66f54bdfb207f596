import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { searchFeed } from "../../../present/search.js";
import { searchItems } from "../../../services/search/search.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { isSearchCacheable, readSearchQuery } from "./search.request.js";

/** `GET /api/search/V2`: full-text search over the caller's groups (Kairan's own, docs/api.md "Search"). */
export function registerSearch(app: FastifyInstance, context: Context): void {
  registerEndpoint(
    app,
    "/api/search/V2",
    {
      async GET(request, reply) {
        const actor = await authenticateRequest(context, request);
        const input = readSearchQuery(request.query as QueryValues);
        requireAccess(actor, "read");
        const view = await searchItems(context, actor, input);
        const options = { text: input.text, locale: context.config.locale, now: context.clock.now() };
        return sendFeed(reply, searchFeed(context.baseUrl(), viewerOf(actor), view, options));
      },
    },
    { feedCacheable: isSearchCacheable },
  );
}
