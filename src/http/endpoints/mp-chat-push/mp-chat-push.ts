import type { FastifyInstance } from "fastify";
import { parseXmlLenientAmpersands } from "../../../atom/lenient.js";
import { requireAccess } from "../../../domain/access.js";
import { chatPushFeed } from "../../../present/chat.js";
import { deleteMessage, pushMessage } from "../../../services/chat/chat-message.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { mediaType } from "../../../http-kit/form.js";
import { readXmlBody } from "../../xml-body.js";
import { receiveUpload } from "../comment/comment.upload.js";
import { readPush } from "./mp-chat-push.request.js";

/**
 * `POST /api/comet/mpChatPush/V2`: the one way to write a chat message (and to delete one's own).
 * Multipart (part `default` + `file0`..`file9`) as for comments. The only endpoint whose XML may
 * hold a bare `&` (atom/lenient.ts). Messages are comments:
 * the `write` level writes them, as it writes comments.
 */
export function registerMpChatPush(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/comet/mpChatPush/V2", {
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      // Checked before the body is read: files are not streamed to disk for a caller who may not write.
      requireAccess(actor, "write");
      const upload =
        mediaType(request) === "multipart/form-data"
          ? await receiveUpload(request, reply, context.blobs, context.admission, parseXmlLenientAmpersands)
          : undefined;
      try {
        const input = readPush(upload?.document ?? readXmlBody(request, parseXmlLenientAmpersands));
        const view =
          input.op === "add"
            ? await pushMessage(context, actor, { ...input, files: upload?.files ?? [] })
            : await deleteMessage(context, actor, input);
        return sendFeed(reply, chatPushFeed(context.baseUrl(), viewerOf(actor), view));
      } finally {
        await upload?.discard();
      }
    },
  });
}
