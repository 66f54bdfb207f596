import type { FastifyInstance } from "fastify";
import { levelAllows, requireAccess } from "../../../domain/access.js";
import { chatRoomsFeed } from "../../../present/chat.js";
import { listRooms, writeRoom } from "../../../services/chat/chat.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { type QueryValues, queryFlag } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { readRoomQuery, readRoomWrite } from "./mp-chat.request.js";

/**
 * `GET|POST /api/mpChat/V2`: the caller's chat rooms; creating, renaming, muting, leaving them.
 * Rooms are the caller's own state (`read` level to list them and mute, `comments` to embed
 * messages or see the latest one's text as the summary, `write` to change them); chat
 * feeds are built afresh each time, outside the feed cache (no change version follows them).
 */
export function registerMpChat(app: FastifyInstance, context: Context): void {
  registerEndpoint(
    app,
    "/api/mpChat/V2",
    {
      async GET(request, reply) {
        const actor = await authenticateRequest(context, request);
        const query = request.query as QueryValues;
        const input = readRoomQuery(query);
        const embed = queryFlag(query, "embed-comment");
        requireAccess(actor, embed ? "comments" : "read");
        const views = await listRooms(context, actor, input);
        const show = { embed, text: levelAllows(actor.app.accessLevel, "comments") };
        return sendFeed(reply, chatRoomsFeed(context.baseUrl(), viewerOf(actor), views, show, context.clock.now()));
      },
      async POST(request, reply) {
        const actor = await authenticateRequest(context, request);
        const input = readRoomWrite(readXmlBody(request));
        requireAccess(actor, input.op === "mute" ? "read" : "write");
        const view = await writeRoom(context, actor, input);
        const show = { embed: false, text: levelAllows(actor.app.accessLevel, "comments") };
        return sendFeed(reply, chatRoomsFeed(context.baseUrl(), viewerOf(actor), [view], show, context.clock.now()));
      },
    },
    { feedCacheable: () => false },
  );
}
