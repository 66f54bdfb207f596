// The caller of an API request: the credentials it carries, who it is once authenticated.
import type { FastifyRequest } from "fastify";
import type { Credentials } from "../auth/credentials.js";
import type { Context } from "../context.js";
import type { Actor } from "../domain/access.js";
import { mediaType } from "../http-kit/form.js";
import { requestSlot } from "../http-kit/request-data.js";
import type { Viewer } from "../present/feed.js";

/**
 * The parts of the request that carry (and, for OAuth, are covered by) credentials. With a
 * configured public URL, a signature over that base also verifies (docs/api.md "Authentication": behind a proxy).
 */
export function credentialsOf(request: FastifyRequest, publicUrl?: string): Credentials {
  const url = request.raw.url ?? "/";
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const type = mediaType(request);
  const body = typeof request.body === "string" ? request.body : "";
  const isForm = type === "application/x-www-form-urlencoded";
  return {
    method: request.method,
    baseUri: `${request.protocol}://${request.host}${path}`,
    publicBaseUri: publicUrl === undefined ? undefined : `${publicUrl}${path}`,
    rawQuery: queryStart === -1 ? "" : url.slice(queryStart + 1),
    authorization: request.headers.authorization,
    formBody: isForm && typeof request.body === "string" ? request.body : undefined,
    rawBody: isForm || type.startsWith("multipart/") ? undefined : body,
  };
}

/** The caller, once known: the feed cache authenticates before the handler does. */
const ACTOR = requestSlot<Actor>("actor");

/**
 * Authenticates the request, the first thing every API handler does, and counts it against the
 * token's rate limit; once per request (a second call returns the same caller, uncounted).
 * @throws TooManyRequestsError RATE_LIMITED
 */
export async function authenticateRequest(context: Context, request: FastifyRequest): Promise<Actor> {
  const known = ACTOR.get(request);
  if (known !== undefined) return known;
  const authenticated = await context.authenticate(credentialsOf(request, context.config.publicUrl));
  // Where the request came from travels with the caller, for the audit rows its writes leave.
  const actor = { ...authenticated, address: context.clientAddress(request) };
  await adoptCaller(context, request, actor);
  return actor;
}

/**
 * Makes `actor`, authenticated by other means (the feed cache's one query), the request's caller,
 * counted against the token's rate limit as {@link authenticateRequest} counts it.
 * @throws TooManyRequestsError RATE_LIMITED
 */
export async function adoptCaller(context: Context, request: FastifyRequest, actor: Actor): Promise<void> {
  await context.limitToken(request, actor);
  ACTOR.set(request, actor);
}

/**
 * Makes `actor` the request's caller without counting it: the WebSub hub's own render of a feed
 * as its subscriber sees it (http/websub-render.ts), whose identity was checked when it was made.
 */
export function adoptInternalCaller(request: FastifyRequest, actor: Actor): void {
  ACTOR.set(request, actor);
}

/** The caller as feeds name it. */
export function viewerOf(actor: Actor): Viewer {
  return { id: actor.user.id, name: actor.user.name, email: actor.user.email };
}
