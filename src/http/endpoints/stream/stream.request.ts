import type { FastifyRequest } from "fastify";
import { ValidationError } from "../../../domain/errors.js";
import type { QueryValues } from "../../../http-kit/query.js";

const EVENT_ID = /^[0-9]{1,15}$/;

/**
 * Where a resumed stream starts: the `Last-Event-ID` header a reconnecting EventSource sends, or
 * `lastEventId` in the query (for clients that cannot set headers). Undefined for a new stream.
 * @throws ValidationError INVALID_LAST_EVENT_ID (not a decimal event id)
 */
export function readLastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers["last-event-id"];
  const query = (request.query as QueryValues)["lastEventId"];
  const raw = typeof header === "string" && header !== "" ? header : typeof query === "string" ? query : undefined;
  if (raw === undefined) return undefined;
  if (!EVENT_ID.test(raw)) {
    throw new ValidationError("INVALID_LAST_EVENT_ID", "Last-Event-ID must be the id of an event this stream sent.");
  }
  return Number(raw);
}
