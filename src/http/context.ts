import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authenticate, Credentials } from "../auth/authenticate.js";
import type { BlobStore } from "../blobs/blob-store.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config/config.js";
import type { Actor } from "../domain/access.js";
import type { Viewer } from "../present/feed.js";
import type { Store } from "../store/store.js";
import { mediaType } from "./xml-body.js";

/** What every endpoint is given: configuration, store, blob store, clock, the authenticator and the site URL. */
export interface Context {
  readonly config: Config;
  readonly store: Store;
  /** File bytes; rows in the store hold only their keys. */
  readonly blobs: BlobStore;
  readonly clock: Clock;
  readonly authenticate: Authenticate;
  /** `{base_url}`: the configured public URL, or the listening address once known. */
  readonly baseUrl: () => string;
}

/** The parts of the request that carry (and, for OAuth, are covered by) credentials. */
export function credentialsOf(request: FastifyRequest): Credentials {
  const url = request.raw.url ?? "/";
  const queryStart = url.indexOf("?");
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  return {
    method: request.method,
    baseUri: `${request.protocol}://${request.host}${path}`,
    rawQuery: queryStart === -1 ? "" : url.slice(queryStart + 1),
    authorization: request.headers.authorization,
    formBody:
      mediaType(request) === "application/x-www-form-urlencoded" && typeof request.body === "string" ? request.body : undefined,
  };
}

/** Authenticates the request: the first thing every API handler does. */
export function authenticateRequest(context: Context, request: FastifyRequest): Promise<Actor> {
  return context.authenticate(credentialsOf(request));
}

/** The caller as feeds name it. */
export function viewerOf(actor: Actor): Viewer {
  return { id: actor.user.id, name: actor.user.name, email: actor.user.email };
}

/** Sends a feed: always 200 (decisions.md §1), Atom content type. */
export function sendFeed(reply: FastifyReply, xml: string): FastifyReply {
  return reply.code(200).header("content-type", "application/atom+xml; charset=utf-8").send(xml);
}
