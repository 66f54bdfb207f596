// Optimistic concurrency for the API's updates and deletes (docs/api.md "Conditional writes"):
// `If-Match` carries the ETag a client read from the item's own feed (`GET ...?entry=<id>`), and
// the write goes ahead only when the item's feed would still answer that tag.
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { withOwnFeedLinks } from "./websub-links.js";

/** The strong ETag of an answer: the hash of its UTF-8 bytes (the feed cache gives feeds the same). */
export function strongTag(body: string): string {
  return `"${createHash("sha1").update(body).digest("base64url")}"`;
}

/**
 * Evaluates `If-Match` (RFC 9110 §13.1.1) before an update or delete. Without the header nothing
 * is read and the write goes ahead. With it, `current` builds the item's own feed exactly as
 * `GET ...?entry=<id>` answers it to this caller (with its WebSub links); it throws what that read throws (404, 403), so
 * an item that is gone is refused as the write itself would refuse it (§13.2.1: preconditions are
 * evaluated only when the request would otherwise succeed). `*` matches any current item; a listed
 * tag matches by strong comparison (a weak `W/` tag never does; a compressed variant's tag names
 * the same entry). On a mismatch the answer is sent here: 412 with the current feed and its ETag,
 * and the handler returns the reply. The check and the write are two steps: a change landing
 * between them is not caught (the window of one request).
 * @returns whether it answered 412 (a boolean: a reply is a thenable, which an async function would await)
 */
export async function refusedPrecondition(
  request: FastifyRequest,
  reply: FastifyReply,
  current: () => Promise<string>,
  baseUrl: string,
): Promise<boolean> {
  const header = request.headers["if-match"];
  if (header === undefined) return false;
  const feed = withOwnFeedLinks(await current(), baseUrl, (request.raw.url ?? "/").split("?")[0] ?? "/");
  const tag = strongTag(feed);
  if (ifMatchHolds(header, tag)) return false;
  void reply
    .code(412)
    .header("etag", tag)
    .header("cache-control", "private, no-cache")
    .header("content-type", "application/atom+xml; charset=utf-8")
    .send(feed);
  return true;
}

/** Whether an If-Match field value holds for the current strong tag (`*` holds for any existing item). */
export function ifMatchHolds(header: string, tag: string): boolean {
  const field = header.trim();
  if (field === "*") return true;
  const opaque = tag.slice(1, -1);
  return field.split(",").some((candidate) => {
    const value = candidate.trim();
    if (!value.startsWith('"') || !value.endsWith('"') || value.length < 2) return false;
    const inner = value.slice(1, -1);
    return inner === opaque || inner.replace(/\.(gzip|br|deflate)$/, "") === opaque;
  });
}
