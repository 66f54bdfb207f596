import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { parseChatId } from "../../../domain/item-id.js";
import { chatLikeWriteFeed, chatLikersFeed } from "../../../present/chat-like.js";
import { likersFeed, reactionWriteFeed } from "../../../present/reaction.js";
import { listChatLikers, setChatLike } from "../../../services/chat/chat-like.js";
import { listLikers, setLike } from "../../../services/item/reaction.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { readLikersQuery, readLikeToggle } from "./good.request.js";

/**
 * `GET|POST /api/good/V2`: who liked an item or a chat message; like and unlike. Likes are the
 * user's own state: `read` level.
 */
export function registerGood(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(
    app,
    "/api/good/V2",
    {
      async GET(request, reply) {
        const actor = await authenticateRequest(context, request);
        const target = readLikersQuery(request.query as QueryValues);
        requireAccess(actor, "read");
        const base = context.baseUrl();
        if (target.kind === "chat")
          return sendFeed(reply, chatLikersFeed(base, viewerOf(actor), await listChatLikers(context, actor, target)));
        return sendFeed(reply, likersFeed(base, viewerOf(actor), await listLikers(context, actor, target)));
      },
      async POST(request, reply) {
        const actor = await authenticateRequest(context, request);
        const { target, on } = readLikeToggle(readXmlBody(request));
        requireAccess(actor, "read");
        const base = context.baseUrl();
        if (target.kind === "chat") {
          const view = await setChatLike(context, actor, { message: target.message, on });
          return sendFeed(reply, chatLikeWriteFeed(base, viewerOf(actor), view, clock.now()));
        }
        const item = await setLike(context, actor, { ref: target.ref, on });
        return sendFeed(reply, reactionWriteFeed(base, viewerOf(actor), item, "GOOD", clock.now()));
      },
    },
    // A chat message's likes move no change version (a room is in no group): never kept by the feed cache.
    { feedCacheable: (query) => parseChatId(queryValue(query, "id") ?? "") === undefined },
  );
}
