import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { deletedPersonalEventFeed, scheduleFeed } from "../../../present/schedule.js";
import {
  createPersonalEvent,
  deletePersonalEvent,
  updatePersonalEvent,
} from "../../../services/schedule/personal-event.js";
import { getScheduleItem, listSchedule } from "../../../services/schedule/schedule.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readXmlBody } from "../../xml-body.js";
import { refusedPrecondition } from "../../precondition.js";
import { isEventQueryCacheable } from "../gw-schedule/gw-schedule.request.js";
import { readPersonalEventWrite, readScheduleQuery } from "./schedule.request.js";

/** `GET|POST /api/schedule/V2`: the caller's schedule; writes of personal events (docs/api.md "Personal schedule"). */
export function registerSchedule(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  const handlers = {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readScheduleQuery(request.query as QueryValues, clock.now());
      requireAccess(actor, input.embedComments ? "comments" : "read");
      const view =
        input.kind === "one" ? await getScheduleItem(context, actor, input) : await listSchedule(context, actor, input);
      return sendFeed(reply, scheduleFeed(context.baseUrl(), viewerOf(actor), view, clock.now()));
    },
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readPersonalEventWrite(readXmlBody(request));
      requireAccess(actor, "write");
      const viewer = viewerOf(actor);
      const defaultTimeZone = context.config.timeZone;
      if (input.op !== "insert") {
        const { ref } = input;
        const current = async () =>
          scheduleFeed(
            context.baseUrl(),
            viewer,
            await getScheduleItem(context, actor, { ref, embedComments: false }),
            clock.now(),
          );
        if (await refusedPrecondition(request, reply, current, context.baseUrl())) return reply;
      }
      if (input.op === "delete") {
        const event = await deletePersonalEvent(context, actor, input);
        return sendFeed(reply, deletedPersonalEventFeed(context.baseUrl(), viewer, event, clock.now()));
      }
      const entry =
        input.op === "insert"
          ? await createPersonalEvent(context, actor, { ...input, defaultTimeZone })
          : await updatePersonalEvent(context, actor, { ...input, defaultTimeZone });
      const view = { items: [{ kind: "personal", entry }] as const, total: 1, comments: undefined };
      return sendFeed(reply, scheduleFeed(context.baseUrl(), viewer, view, clock.now()));
    },
  } satisfies Parameters<typeof registerEndpoint>[2];
  // Kept by the feed cache as the group event list is (a window of the clock's is not): a personal
  // event's write moves its owner's version (migration 0029), a group event's its group's.
  registerEndpoint(app, "/api/schedule/V2", handlers, { feedCacheable: isEventQueryCacheable });
}
