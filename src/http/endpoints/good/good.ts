import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { ValidationError } from "../../../domain/errors.js";
import { likersFeed, reactionWriteFeed } from "../../../present/reaction.js";
import { listLikers, setLike } from "../../../services/reaction.js";
import { readItemId } from "../../../http-kit/parameters.js";
import { readItemToggle } from "../../atom-request.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";

/** `GET|POST /api/good/V2`: who liked an item; like and unlike. Likes are the user's own state: `read` level. */
export function registerGood(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/good/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const id = queryValue(request.query as QueryValues, "id");
      if (id === undefined)
        throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id (the item's id) is required.");
      const ref = readItemId(id, "id");
      requireAccess(actor, "read");
      return sendFeed(reply, likersFeed(context.baseUrl(), viewerOf(actor), await listLikers(context, actor, { ref })));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readItemToggle(readXmlBody(request), "like");
      requireAccess(actor, "read");
      const item = await setLike(context, actor, input);
      return sendFeed(reply, reactionWriteFeed(context.baseUrl(), viewerOf(actor), item, "GOOD", clock.now()));
    },
  });
}
