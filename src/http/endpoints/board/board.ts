import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { boardFeed, deletedTopicFeed } from "../../../present/board.js";
import { commentWriteFeed } from "../../../present/comment.js";
import { addComment } from "../../../services/comment/comment.js";
import {
  createTopic,
  deleteTopic,
  getTopic,
  listTopics,
  lockTopic,
  releaseEditLease,
  updateTopic,
} from "../../../services/topic/topic.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { nextChangesHref } from "../../changes-link.js";
import { refusedPrecondition } from "../../precondition.js";
import { readBoardQuery, readBoardWrite } from "./board.request.js";

/** `GET|POST /api/board/V2`: topics of a group's board. */
export function registerBoard(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/board/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readBoardQuery(request.query as QueryValues);
      requireAccess(actor, input.embedComments ? "comments" : "read");
      const view =
        input.kind === "one" ? await getTopic(context, actor, input) : await listTopics(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, boardFeed(context.baseUrl(), viewerOf(actor), view, clock.now(), changes));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readBoardWrite(readXmlBody(request), request.query as QueryValues);
      requireAccess(actor, "write");
      const baseUrl = context.baseUrl();
      const viewer = viewerOf(actor);
      if (input.op === "update" || input.op === "delete") {
        // The topic's own feed, as `GET ?entry=` answers it: its ETag is what If-Match names.
        const current = async () =>
          boardFeed(
            baseUrl,
            viewer,
            await getTopic(context, actor, { ref: input.ref, embedComments: false }),
            clock.now(),
          );
        if (await refusedPrecondition(request, reply, current, context.baseUrl())) return reply;
      }
      switch (input.op) {
        case "create":
          return sendFeed(reply, boardFeed(baseUrl, viewer, await createTopic(context, actor, input), clock.now()));
        case "update":
          return sendFeed(reply, boardFeed(baseUrl, viewer, await updateTopic(context, actor, input), clock.now()));
        case "delete":
          return sendFeed(
            reply,
            deletedTopicFeed(baseUrl, viewer, await deleteTopic(context, actor, input), clock.now()),
          );
        case "lock":
          return sendFeed(reply, boardFeed(baseUrl, viewer, await lockTopic(context, actor, input), clock.now()));
        case "unlock":
          return sendFeed(
            reply,
            boardFeed(baseUrl, viewer, await releaseEditLease(context, actor, input), clock.now()),
          );
        case "comment":
          return sendFeed(reply, commentWriteFeed(baseUrl, viewer, await addComment(context, actor, input)));
      }
    },
  });
}
