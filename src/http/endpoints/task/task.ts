import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { personalTaskFeed, todoFeed } from "../../../present/todo.js";
import {
  createPersonalTask,
  deletePersonalTask,
  getPersonalTask,
  updatePersonalTask,
} from "../../../services/todo/personal-task.js";
import { listTodo } from "../../../services/todo/todo.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { refusedPrecondition } from "../../precondition.js";
import { nextChangesHref } from "../../changes-link.js";
import { readPersonalTaskWrite, readTodoEntry, readTodoQuery } from "./task.request.js";

/** `GET|POST /api/task/V2`: the caller's ToDo list; writes of personal tasks (docs/api.md "Personal ToDo"). */
export function registerTask(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  const locale = context.config.locale;
  const handlers = {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const one = readTodoEntry(request.query as QueryValues);
      if (one !== undefined) {
        requireAccess(actor, "read");
        return sendFeed(
          reply,
          personalTaskFeed(context.baseUrl(), viewerOf(actor), await getPersonalTask(context, actor, one), locale),
        );
      }
      const input = readTodoQuery(request.query as QueryValues, clock.now());
      requireAccess(actor, input.embedComments ? "comments" : "read");
      const view = await listTodo(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, todoFeed(context.baseUrl(), viewerOf(actor), view, locale, clock.now(), changes));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readPersonalTaskWrite(readXmlBody(request));
      requireAccess(actor, "write");
      if (input.op !== "insert") {
        const { ref } = input;
        const current = async () =>
          personalTaskFeed(context.baseUrl(), viewerOf(actor), await getPersonalTask(context, actor, ref), locale);
        if (await refusedPrecondition(request, reply, current, context.baseUrl())) return reply;
      }
      const task =
        input.op === "insert"
          ? await createPersonalTask(context, { ownerId: actor.user.id, draft: input.draft })
          : input.op === "update"
            ? await updatePersonalTask(context, actor, { ref: input.ref, change: input.draft })
            : await deletePersonalTask(context, actor, input);
      return sendFeed(reply, personalTaskFeed(context.baseUrl(), viewerOf(actor), task, locale));
    },
  } satisfies Parameters<typeof registerEndpoint>[2];
  // Personal tasks move no change version (store/change-tracking.ts): this feed is built every time.
  registerEndpoint(app, "/api/task/V2", handlers, { feedCacheable: () => false });
}
