import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { deletedEventFeed, eventFeed, eventMenusFeed } from "../../../present/event.js";
import { getEvent, listEventMenus, listEvents } from "../../../services/event/event.js";
import { answerEvent, createEvent, deleteEvent, updateEvent } from "../../../services/event/event-write.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { refusedPrecondition } from "../../precondition.js";
import { nextChangesHref } from "../../changes-link.js";
import { isEventQueryCacheable, readEventQuery, readEventWrite } from "./gw-schedule.request.js";

/** `GET|POST /api/gwSchedule/V2`: a group's events (docs/api.md "Events"). */
export function registerGwSchedule(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  const handlers = {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readEventQuery(request.query as QueryValues, clock.now());
      requireAccess(actor, input.embedComments ? "comments" : "read");
      const view =
        input.kind === "one" ? await getEvent(context, actor, input) : await listEvents(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, eventFeed(context.baseUrl(), viewerOf(actor), view, clock.now(), changes));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readEventWrite(readXmlBody(request));
      requireAccess(actor, "write");
      const viewer = viewerOf(actor);
      const defaultTimeZone = context.config.timeZone;
      if (input.op !== "insert") {
        const { ref } = input;
        const current = async () =>
          eventFeed(
            context.baseUrl(),
            viewer,
            await getEvent(context, actor, { ref, embedComments: false }),
            clock.now(),
          );
        if (await refusedPrecondition(request, reply, current, context.baseUrl())) return reply;
      }
      switch (input.op) {
        case "insert": {
          const view = await createEvent(context, actor, { ...input, defaultTimeZone });
          return sendFeed(reply, eventFeed(context.baseUrl(), viewer, view, clock.now()));
        }
        case "update": {
          const view = await updateEvent(context, actor, { ...input, defaultTimeZone });
          return sendFeed(reply, eventFeed(context.baseUrl(), viewer, view, clock.now()));
        }
        case "answer": {
          await answerEvent(context, actor, input);
          const view = await getEvent(context, actor, { ref: input.ref, embedComments: false });
          return sendFeed(reply, eventFeed(context.baseUrl(), viewer, view, clock.now()));
        }
        case "delete": {
          const { event, group } = await deleteEvent(context, actor, input);
          return sendFeed(reply, deletedEventFeed(context.baseUrl(), viewer, event, group, clock.now()));
        }
      }
    },
  } satisfies Parameters<typeof registerEndpoint>[2];
  // A window counted from now changes with the clock: that answer is built every time.
  registerEndpoint(app, "/api/gwSchedule/V2", handlers, { feedCacheable: isEventQueryCacheable });
}

/** `GET /api/gwScheduleFolder/V2?group=`: a group's event menus. */
export function registerGwScheduleFolder(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/gwScheduleFolder/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const query = request.query as QueryValues;
      const input = { groupId: readGroupParameter(query), page: readPage(query) };
      requireAccess(actor, "read");
      const { group, menus } = await listEventMenus(context, actor, input);
      return sendFeed(reply, eventMenusFeed(context.baseUrl(), viewerOf(actor), group, menus));
    },
  });
}
