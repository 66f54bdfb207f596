import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendHookHandler,
  preHandlerAsyncHookHandler,
} from "fastify";
import { bearerActor, bearerTokenOf } from "../auth/authenticate.js";
import { hashToken } from "../auth/token.js";
import type { Actor } from "../domain/access.js";
import type { ViewVersion } from "../store/change-tracking.js";
import type { Context } from "../context.js";
import { adoptCaller, authenticateRequest } from "./caller.js";
import { COMPRESS_THRESHOLD_BYTES, type CachedFeed, FeedCache, negotiateEncoding } from "./feed-cache.js";
import type { QueryValues } from "../http-kit/query.js";
import { requestSlot } from "../http-kit/request-data.js";
import { strongTag } from "./precondition.js";
import { withHubLinks } from "./websub-links.js";

const FEED_TYPE = "application/atom+xml";
/** Where the hash-based ETag waits for the hook that runs after compression (on the reply). */
const IDENTITY_TAG = requestSlot<string>("identityEtag");
/** The reply was sent from the cache: its headers are set (on the reply). */
const SERVED = requestSlot<true>("servedFromCache");
/** The caller is known and the cache was consulted (or the feed is not cacheable): on the request. */
const CHECKED = requestSlot<true>("feedChecked");
/** The request's cache key and Last-Modified, once looked up. */
const LOOKUP = requestSlot<FeedLookup>("feedLookup");

/** A feed request the cache may answer: its key and the Last-Modified it gets. */
interface FeedLookup {
  /** Caller, access level, method and URL: what a poller asks for again and again. */
  readonly target: string;
  /** The target at the caller's current view version. */
  readonly key: string;
  readonly lastModified: number | undefined;
}

/**
 * A change is stamped inside its transaction, and becomes visible at commit, a moment later. A
 * Last-Modified second is therefore sent only once it has been over for this long, so that no
 * change stamped within it can still appear afterwards (see {@link lastModifiedOf}).
 */
const COMMIT_SETTLE_MS = 1000;

/**
 * HTTP validators and the feed cache for every GET feed (every GET under /api/ registered after
 * this), in one place (docs/architecture.md "The feed cache and change versions"):
 * - before the handler: authenticate (once: the handler reuses the caller), read the caller's
 *   view version (one query) and look the feed up by (caller, access level, method, path and
 *   query without OAuth parameters, version). A hit answers 304 or the kept bytes without
 *   running the handler; the version changes whenever anything the caller's feeds show changes,
 *   in any process, so a hit is the feed the handler would build now.
 * - after it (a miss): a strong ETag hashed from the exact body (the same in every process),
 *   kept with the body under the key when the caller asked for this URL before.
 * Last-Modified is the time of the latest change the version counts; If-None-Match decides when
 * present, else If-Modified-Since equal to it. Register before the routes and after
 * @fastify/compress: kept feeds keep their compressed variants (the plugin leaves an answer with
 * a Content-Encoding alone), and a compressed variant gets its own strong tag.
 */
export function registerFeedCaching(app: FastifyInstance, context: Context): FeedCache {
  const cache = new FeedCache(context.config.limits.feedCacheBytes);

  /** Looks the feed up at the caller's version: a hit is answered here, a miss goes on to the handler. */
  const serveKept = (request: FastifyRequest, reply: FastifyReply, actor: Actor, version: ViewVersion) => {
    const target = `${actor.user.id}\n${actor.app.accessLevel}\n${request.method}\n${normalisedTarget(request.raw.url ?? "/")}`;
    const key = `${target}\n${version.memberVersion}\n${version.groupVersions}`;
    const lookup = { target, key, lastModified: lastModifiedOf(version) };
    LOOKUP.set(request, lookup);
    const entry = cache.get(key);
    if (entry === undefined) return undefined;
    SERVED.set(reply, true);
    setValidators(reply, entry.etag, lookup.lastModified);
    if (isNotModified(request, entry.etag, lookup.lastModified)) return reply.code(304).send();
    return reply
      .code(200)
      .header("content-type", `${FEED_TYPE}; charset=utf-8`)
      .send(encoded(request, reply, key, entry));
  };

  // The fast path of a poll with a Bearer token (docs/architecture.md "The fast path of a poll"):
  // before the rest of the request's hooks, the token and the view version in one query.
  const fastLookUp: onRequestAsyncHookHandler = async (request, reply) => {
    if (!isFeedRoute(request)) return;
    const token = bearerTokenOf(request.headers.authorization);
    if (token === undefined) return;
    const found = await context.store.callerView(hashToken(token));
    // Not live: the handler's authentication gives the refusal every other request gets.
    if (found === undefined) return;
    const actor = bearerActor(found.grant);
    await adoptCaller(context, request, actor);
    CHECKED.set(request, true);
    if (!isCacheable(request)) return;
    return serveKept(request, reply, actor, found.version);
  };

  // Every other feed request (OAuth signatures): authenticate, then read the version.
  const lookUp: preHandlerAsyncHookHandler = async (request, reply) => {
    if (!isFeedRoute(request) || CHECKED.get(request) === true) return;
    const actor = await authenticateRequest(context, request);
    if (!isCacheable(request)) return;
    return serveKept(request, reply, actor, await context.store.viewVersion(actor.user.id));
  };

  const keep = (request: FastifyRequest, reply: FastifyReply, sent: unknown): unknown => {
    if (SERVED.get(reply) === true || !isFeedAnswer(request, reply) || typeof sent !== "string") return sent;
    // WebSub discovery (docs/api.md "WebSub"): kept with the feed, so a cached answer carries it too.
    const payload = withHubLinks(sent, context.baseUrl(), request.raw.url ?? "/");
    // The hash of the UTF-8 bytes, which are what is sent.
    const tag = strongTag(payload);
    const lookup = LOOKUP.get(request);
    setValidators(reply, tag, lookup?.lastModified);
    const entry = lookup && cache.admits(lookup.target) ? cache.set(lookup.key, Buffer.from(payload), tag) : undefined;
    if (isNotModified(request, tag, lookup?.lastModified)) {
      reply.code(304);
      reply.removeHeader("content-type");
      reply.removeHeader("content-length");
      return "";
    }
    return lookup && entry ? encoded(request, reply, lookup.key, entry) : payload;
  };

  app.addHook("onRequest", fastLookUp);
  app.addHook("preHandler", lookUp);
  // A callback hook: no promise per request.
  app.addHook("onSend", (request, reply, payload, done) => {
    let kept: unknown;
    try {
      kept = keep(request, reply, payload);
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, kept);
  });
  app.addHook("onRoute", (route) => {
    // Route-level onSend hooks run after the instance's, and @fastify/compress added its own first.
    const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...existing, tagEncodedVariant];
  });
  return cache;

  /** The kept bytes in the coding the client asks for (compressed once per entry), else identity. */
  function encoded(request: FastifyRequest, reply: FastifyReply, key: string, entry: CachedFeed): Buffer {
    const encoding =
      request.headers["x-no-compression"] === undefined
        ? negotiateEncoding(request.headers["accept-encoding"])
        : undefined;
    if (encoding === undefined || entry.body.length < COMPRESS_THRESHOLD_BYTES) return entry.body;
    reply.header("content-encoding", encoding);
    return cache.variant(key, entry, encoding);
  }
}

/**
 * Sets a strong ETag hashed from an answer's identity bytes, for a route outside the feed cache
 * registered after it (the calendar feeds): a compressed variant then gets its own tag, as feeds do.
 */
export function setIdentityTag(reply: FastifyReply, tag: string): void {
  IDENTITY_TAG.set(reply, tag);
  reply.header("etag", tag);
}

/** The validator headers of a feed answer, 200 or 304. */
function setValidators(reply: FastifyReply, tag: string, lastModified: number | undefined): void {
  IDENTITY_TAG.set(reply, tag);
  reply.header("etag", tag);
  reply.header("cache-control", "private, no-cache");
  // Lower case so that @fastify/compress sees it and does not add it twice; even an identity answer
  // varies with Accept-Encoding, since another request could have received it compressed.
  reply.header("vary", "Authorization, accept-encoding");
  if (lastModified !== undefined) reply.header("last-modified", httpDate(lastModified));
}

/** The last date formatted: polls between two changes all send the same one (a few µs each time). */
let lastDate: { readonly ms: number; readonly text: string } = { ms: NaN, text: "" };

function httpDate(ms: number): string {
  if (lastDate.ms !== ms) lastDate = { ms, text: new Date(ms).toUTCString() };
  return lastDate.text;
}

// A callback hook: no promise per request.
const tagEncodedVariant: onSendHookHandler = (_request, reply, payload, done) => {
  const tag = IDENTITY_TAG.get(reply);
  const encoding = reply.getHeader("content-encoding");
  // A strong tag names one representation: the gzip and br bytes differ from the identity bytes.
  if (tag !== undefined && typeof encoding === "string" && encoding !== "identity") {
    reply.header("etag", `${tag.slice(0, -1)}.${encoding}"`);
  }
  done(null, payload);
};

/** A feed that depends on the clock (a task term counted from now) has no lasting validators but its tag. */
function isCacheable(request: FastifyRequest): boolean {
  const cacheable = request.routeOptions.config.feedCacheable;
  return cacheable === undefined || cacheable(request.query as QueryValues);
}

/** GET (and HEAD) of an API endpoint: every one of them answers a feed, or an error. */
function isFeedRoute(request: FastifyRequest): boolean {
  return (
    (request.method === "GET" || request.method === "HEAD") && (request.routeOptions.url ?? "").startsWith("/api/")
  );
}

function isFeedAnswer(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (reply.statusCode !== 200) return false;
  const type = reply.getHeader("content-type");
  return typeof type === "string" && type.startsWith(FEED_TYPE);
}

/**
 * Path and query without the OAuth protocol parameters: a signed request carries a fresh nonce,
 * timestamp and signature each time, and they change nothing in the feed.
 */
export function normalisedTarget(url: string): string {
  const start = url.indexOf("?");
  if (start === -1) return url;
  const kept = url
    .slice(start + 1)
    .split("&")
    .filter((parameter) => parameter !== "" && !parameter.startsWith("oauth_"));
  return kept.length === 0 ? url.slice(0, start) : `${url.slice(0, start)}?${kept.join("&")}`;
}

/**
 * Last-Modified: the second of the latest change the version counts, once that second has been
 * over for {@link COMMIT_SETTLE_MS}; before that, none. HTTP dates have whole seconds: a later
 * change within the same second would send the same date for a different feed. A date is thus
 * sent only when every change stamped up to it has committed (unless a transaction's commit came
 * more than a second after its write), and any later change is stamped in a later second, so an
 * exact match of If-Modified-Since means the same feed.
 */
export function lastModifiedOf(version: ViewVersion): number | undefined {
  const second = Math.floor(version.changedAt / 1000) * 1000;
  return version.now >= second + 1000 + COMMIT_SETTLE_MS ? second : undefined;
}

/**
 * RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it, and
 * only when it is exactly the Last-Modified we would send now (not "not older than it": a
 * deleted older topic does not move a feed's newest date, but it moves the change time).
 */
function isNotModified(request: FastifyRequest, tag: string, lastModified: number | undefined): boolean {
  const noneMatch = request.headers["if-none-match"];
  if (noneMatch !== undefined) return matchesAny(noneMatch, tag);
  const since = request.headers["if-modified-since"];
  return since !== undefined && lastModified !== undefined && Date.parse(since) === lastModified;
}

/** Weak comparison (§13.1.2), and a tag of a compressed variant names the same content. */
export function matchesAny(header: string, tag: string): boolean {
  // A poller sends back the tag it was given: compared without splitting in the usual case.
  if (header === tag) return true;
  if (header.trim() === "*") return true;
  const opaque = tag.slice(1, -1);
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return value === opaque || value.replace(/\.(gzip|br|deflate)$/, "") === opaque;
  });
}
