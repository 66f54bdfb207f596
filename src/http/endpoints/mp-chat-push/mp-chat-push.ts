import type { FastifyInstance } from "fastify";
import { parseXmlLenientAmpersands } from "../../../atom/lenient.js";
import { requireAccess } from "../../../domain/access.js";
import { chatPushFeed } from "../../../present/chat.js";
import { deleteMessage, pushMessage } from "../../../services/chat-message.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { readPush } from "./mp-chat-push.request.js";

/**
 * `POST /api/comet/mpChatPush/V2`: the one way to write a chat message (and to delete one's own).
 * The only endpoint whose body may hold a bare `&` (atom/lenient.ts). Messages are comments:
 * the `write` level writes them, as it writes comments.
 */
export function registerMpChatPush(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/comet/mpChatPush/V2", {
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readPush(readXmlBody(request, parseXmlLenientAmpersands));
      requireAccess(actor, "write");
      const view =
        input.op === "add" ? await pushMessage(context, actor, input) : await deleteMessage(context, actor, input);
      return sendFeed(reply, chatPushFeed(context.baseUrl(), viewerOf(actor), view));
    },
  });
}
