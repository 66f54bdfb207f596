import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { taskFeed } from "../../../present/task.js";
import { getTask, listTasks } from "../../../services/task/task.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { isTaskQueryCacheable, readTaskQuery } from "./gw-task.request.js";
import { nextChangesHref } from "../../changes-link.js";

/** `GET /api/gwTask/V2`: a group's task list (read only). */
export function registerGwTask(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  const handlers = {
    async GET(request: FastifyRequest, reply: FastifyReply) {
      const actor = await authenticateRequest(context, request);
      const input = readTaskQuery(request.query as QueryValues, clock.now());
      requireAccess(actor, input.embedComments ? "comments" : "read");
      const view = input.kind === "one" ? await getTask(context, actor, input) : await listTasks(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(
        reply,
        taskFeed(context.baseUrl(), viewerOf(actor), view, context.config.locale, clock.now(), changes),
      );
    },
  };
  // A term counted from now changes with the clock: that answer is built every time.
  registerEndpoint(app, "/api/gwTask/V2", handlers, { feedCacheable: isTaskQueryCacheable });
}
