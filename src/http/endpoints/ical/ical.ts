import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { NotFoundError } from "../../../domain/errors.js";
import { parsePair } from "../../../domain/item-id.js";
import { ICAL_TYPE, calendarText } from "../../../present/ical.js";
import { readGroupCalendar, readMyCalendar } from "../../../services/schedule/calendar-feed.js";
import type { Context } from "../../../context.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { matchesAny, setIdentityTag } from "../../caching.js";

/**
 * The calendar addresses (docs/api.md "Calendar feeds"): `/ical/<secret>/me.ics` and
 * `/ical/<secret>/group/1:g.ics`, iCalendar for calendar applications that subscribe without
 * OAuth. The secret is the credential; any address it does not open is the same 404.
 */
export function registerIcal(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/ical/:secret/me.ics", {
    async GET(request, reply) {
      const view = await readMyCalendar(context, { secret: paramOf(request, "secret") });
      return sendCalendar(request, reply, calendarText(view, context.baseUrl()));
    },
  });
  registerEndpoint(app, "/ical/:secret/group/:calendar", {
    async GET(request, reply) {
      const groupId = groupOf(paramOf(request, "calendar"));
      const view = await readGroupCalendar(context, { secret: paramOf(request, "secret"), groupId });
      return sendCalendar(request, reply, calendarText(view, context.baseUrl()));
    },
  });
}

function paramOf(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string | undefined>)[name] ?? "";
}

/** `1:g.ics` to the group's number. @throws NotFoundError NOT_FOUND */
function groupOf(file: string): number {
  const groupId = file.endsWith(".ics") ? parsePair(file.slice(0, -".ics".length)) : undefined;
  if (groupId === undefined) throw new NotFoundError("NOT_FOUND", "There is no calendar at this address.");
  return groupId;
}

/**
 * 200 with the calendar, or 304 when If-None-Match names its tag (hashed from the bytes: the
 * calendar is built afresh on each request, which calendar applications make hourly at most).
 */
function sendCalendar(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  const tag = `"${createHash("sha1").update(text).digest("base64url")}"`;
  setIdentityTag(reply, tag);
  reply.header("cache-control", "private, no-cache").header("x-content-type-options", "nosniff");
  const noneMatch = request.headers["if-none-match"];
  if (noneMatch !== undefined && matchesAny(noneMatch, tag)) return reply.code(304).send();
  return reply.code(200).header("content-type", ICAL_TYPE).send(text);
}
