import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authenticate, Credentials } from "../auth/authenticate.js";
import type { Config } from "../config/config.js";
import type { Actor } from "../domain/access.js";
import type { Viewer } from "../present/feed.js";
import type { ServiceContext } from "../services/context.js";
import type { Admission } from "./admission.js";
import type { TokenLimit } from "./rate-limit.js";
import { mediaType } from "./xml-body.js";

/**
 * What every endpoint is given: the services' context (store, blobs, clock), configuration, the
 * authenticator and the site URL. Handlers pass it to services as it is.
 */
export interface Context extends ServiceContext {
  readonly config: Config;
  readonly authenticate: Authenticate;
  /** `{base_url}`: the configured public URL, or the listening address once known. */
  readonly baseUrl: () => string;
  /** Counts an authenticated request against its token's rate limit. */
  readonly limitToken: TokenLimit;
  /** Shutdown state and upload slots. */
  readonly admission: Admission;
  /** The client's address (through trusted proxies), for rate limits and sign-in throttling. */
  readonly clientAddress: (request: FastifyRequest) => string;
}

/**
 * The parts of the request that carry (and, for OAuth, are covered by) credentials. With a
 * configured public URL, a signature over that base also verifies (decisions.md §3: behind a proxy).
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
const ACTOR = Symbol("actor");
// A property rather than a WeakMap keyed by request: its entries would go only at a full collection.
type AuthenticatedRequest = FastifyRequest & { [ACTOR]?: Actor };

/**
 * Authenticates the request, the first thing every API handler does, and counts it against the
 * token's rate limit; once per request (a second call returns the same caller, uncounted).
 * @throws TooManyRequestsError RATE_LIMITED
 */
export async function authenticateRequest(context: Context, request: FastifyRequest): Promise<Actor> {
  const known = (request as AuthenticatedRequest)[ACTOR];
  if (known !== undefined) return known;
  const actor = await context.authenticate(credentialsOf(request, context.config.publicUrl));
  await context.limitToken(request, actor);
  (request as AuthenticatedRequest)[ACTOR] = actor;
  return actor;
}

/** The caller as feeds name it. */
export function viewerOf(actor: Actor): Viewer {
  return { id: actor.user.id, name: actor.user.name, email: actor.user.email };
}

/** Sends a feed: always 200 (decisions.md §1), Atom content type. */
export function sendFeed(reply: FastifyReply, xml: string): FastifyReply {
  return reply.code(200).header("content-type", "application/atom+xml; charset=utf-8").send(xml);
}
