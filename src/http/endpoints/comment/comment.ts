import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { commentWriteFeed, commentsFeed } from "../../../present/comment.js";
import { addComment, deleteComment, editComment, getComment, listComments } from "../../../services/comment/comment.js";
import { refusePersonalEventComments } from "../../../services/schedule/personal-event.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { mediaType } from "../../../http-kit/form.js";
import { readXmlBody } from "../../xml-body.js";
import { refusedPrecondition } from "../../precondition.js";
import {
  readChatMessagesQuery,
  readCommentQuery,
  readCommentWrite,
  readOneComment,
  readPersonalEventParent,
} from "./comment.request.js";
import { sendChatMessages } from "./chat-messages.js";
import { receiveUpload } from "./comment.upload.js";
import { nextChangesHref } from "../../changes-link.js";

/** `GET|POST /api/comment/V2`: comments of a topic, task or file, with attachments. */
export function registerComment(app: FastifyInstance, context: Context): void {
  const { blobs } = context;
  registerEndpoint(
    app,
    "/api/comment/V2",
    {
      async GET(request, reply) {
        const actor = await authenticateRequest(context, request);
        const chat = readChatMessagesQuery(request.query as QueryValues);
        if (chat !== undefined) return sendChatMessages(context, actor, chat, request, reply);
        // A personal event takes no comments: its owner is told so, anyone else finds nothing.
        const personal = readPersonalEventParent(request.query as QueryValues);
        if (personal !== undefined) {
          requireAccess(actor, "comments");
          return refusePersonalEventComments(context, actor, personal);
        }
        const one = readOneComment(request.query as QueryValues);
        if (one !== undefined) {
          requireAccess(actor, "comments");
          return sendFeed(
            reply,
            commentWriteFeed(context.baseUrl(), viewerOf(actor), await getComment(context, actor, one)),
          );
        }
        const input = readCommentQuery(request.query as QueryValues, actor.user.id);
        requireAccess(actor, "comments");
        const view = await listComments(context, actor, input);
        const changes = nextChangesHref(context.baseUrl(), request, view.changes);
        return sendFeed(reply, commentsFeed(context.baseUrl(), viewerOf(actor), view, changes));
      },
      async POST(request, reply) {
        const actor = await authenticateRequest(context, request);
        // Checked before the body is read: files are not streamed to disk for a caller who may not write.
        requireAccess(actor, "write");
        const upload =
          mediaType(request) === "multipart/form-data"
            ? await receiveUpload(request, reply, blobs, context.admission)
            : undefined;
        try {
          const input = readCommentWrite(upload?.document ?? readXmlBody(request), actor.user.id);
          if (input.op === "personal") return await refusePersonalEventComments(context, actor, input.ref);
          if (input.op === "update" || input.op === "delete") {
            const { parent, number } = input;
            const current = async () =>
              commentWriteFeed(
                context.baseUrl(),
                viewerOf(actor),
                await getComment(context, actor, { parent, number }),
              );
            if (await refusedPrecondition(request, reply, current, context.baseUrl())) return reply;
          }
          const view =
            input.op === "add"
              ? await addComment(context, actor, { ...input, files: upload?.files ?? [] })
              : input.op === "update"
                ? await editComment(context, actor, input)
                : await deleteComment(context, actor, input);
          return sendFeed(reply, commentWriteFeed(context.baseUrl(), viewerOf(actor), view));
        } finally {
          await upload?.discard();
        }
      },
    },
    // A chat room's messages change with no change version (docs/architecture.md): never cached.
    { feedCacheable: (query) => readChatMessagesQuery(query) === undefined },
  );
}
