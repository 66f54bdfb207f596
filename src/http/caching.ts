import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from "fastify";

const FEED_TYPE = "application/atom+xml";
/** Where the hash-based ETag waits for the hook that runs after compression. */
const IDENTITY_TAG = Symbol("identityEtag");

type TaggedReply = FastifyReply & { [IDENTITY_TAG]?: string };

/**
 * HTTP validators for every GET feed, in one place: a strong ETag hashed from the exact body
 * (it changes exactly when what the caller sees changes: the feed names the caller as author),
 * Last-Modified from the feed's `updated`, and 304 for a matching conditional request.
 * Register before the routes and after @fastify/compress: the 304 is decided on the identity
 * body (no compression work for it), and a compressed variant gets its own strong tag.
 */
export function registerFeedCaching(app: FastifyInstance): void {
  app.addHook("onSend", answerConditional);
  app.addHook("onRoute", (route) => {
    // Route-level onSend hooks run after the instance's, and @fastify/compress added its own first.
    const existing = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...existing, tagEncodedVariant];
  });
}

const answerConditional: onSendHookHandler = async (request, reply, payload) => {
  if (!isCacheableFeed(request, reply) || typeof payload !== "string") return payload;
  const tag = `"${createHash("sha1").update(payload).digest("base64url")}"`;
  (reply as TaggedReply)[IDENTITY_TAG] = tag;
  const lastModified = feedUpdated(payload);
  reply.header("etag", tag);
  reply.header("cache-control", "private, no-cache");
  // Lower case so that @fastify/compress sees it and does not add it twice; even an identity answer
  // varies with Accept-Encoding, since another request could have received it compressed.
  reply.header("vary", "Authorization, accept-encoding");
  if (lastModified !== undefined) reply.header("last-modified", new Date(lastModified).toUTCString());
  if (!isNotModified(request, tag, lastModified)) return payload;
  reply.code(304);
  reply.removeHeader("content-type");
  reply.removeHeader("content-length");
  return "";
};

const tagEncodedVariant: onSendHookHandler = async (_request, reply, payload) => {
  const tag = (reply as TaggedReply)[IDENTITY_TAG];
  const encoding = reply.getHeader("content-encoding");
  // A strong tag names one representation: the gzip and br bytes differ from the identity bytes.
  if (tag !== undefined && typeof encoding === "string" && encoding !== "identity") {
    reply.header("etag", `${tag.slice(0, -1)}.${encoding}"`);
  }
  return payload;
};

function isCacheableFeed(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (reply.statusCode !== 200) return false;
  const type = reply.getHeader("content-type");
  return typeof type === "string" && type.startsWith(FEED_TYPE);
}

/**
 * RFC 9110 §13.2.2: If-None-Match decides when present; If-Modified-Since only without it.
 * Known limit: the feed's `updated` has whole seconds and does not move when an older topic is
 * deleted, so If-Modified-Since alone can answer 304 for a changed list; the ETag cannot.
 */
function isNotModified(request: FastifyRequest, tag: string, lastModified: number | undefined): boolean {
  const noneMatch = request.headers["if-none-match"];
  if (noneMatch !== undefined) return matchesAny(noneMatch, tag);
  const since = request.headers["if-modified-since"];
  if (since === undefined || lastModified === undefined) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && lastModified <= sinceMs;
}

/** Weak comparison (§13.1.2), and a tag of a compressed variant names the same content. */
export function matchesAny(header: string, tag: string): boolean {
  if (header.trim() === "*") return true;
  const opaque = tag.slice(1, -1);
  return header.split(",").some((candidate) => {
    const value = candidate.trim().replace(/^W\//, "").replace(/^"|"$/g, "");
    return value === opaque || value.replace(/\.(gzip|br|deflate)$/, "") === opaque;
  });
}

/** The feed-level `<updated>`: the first one, since the feed head precedes every entry. */
function feedUpdated(xml: string): number | undefined {
  const start = xml.indexOf("<updated>");
  if (start === -1) return undefined;
  const value = Date.parse(xml.slice(start + 9, xml.indexOf("</updated>", start)));
  return Number.isNaN(value) ? undefined : value;
}
