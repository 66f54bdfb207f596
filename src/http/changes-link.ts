// Delta sync at the HTTP edge (docs/api.md "Delta sync"): the `changes-since` parameter and the
// `<link rel="next-changes">` address of a list feed.
import type { FastifyRequest } from "fastify";
import { type ChangeCursor, formatCursor, parseCursor } from "../domain/changes.js";
import { ValidationError } from "../domain/errors.js";
import type { PageWindow } from "../store/page-window.js";
import type { ChangesView } from "../services/item/changes.js";
import { type QueryValues, queryValue } from "../http-kit/query.js";

/**
 * `changes-since`: undefined when absent. Its pages follow the cursor, not `start-index`.
 * @throws ValidationError CHANGES_CURSOR_INVALID, CHANGES_WITH_START_INDEX
 */
export function readChangesSince(query: QueryValues, page: PageWindow): ChangeCursor | undefined {
  const value = queryValue(query, "changes-since");
  if (value === undefined) return undefined;
  const cursor = parseCursor(value);
  if (page.offset > 0) {
    throw new ValidationError(
      "CHANGES_WITH_START_INDEX",
      "changes-since pages by its cursor: leave start-index out and follow the next-changes link.",
    );
  }
  return cursor;
}

/** Parameters the next-changes address leaves out: the cursor's, paging by offset, and credentials. */
const LEFT_OUT = /^(?:changes-since|start-index|oauth_.*)$|token|secret|signature/i;

/**
 * The address of a feed's next changes: this request's path and parameters (without credentials
 * and offset) with the next cursor; undefined when the feed has no changes view.
 */
export function nextChangesHref(
  baseUrl: string,
  request: FastifyRequest,
  changes: ChangesView | undefined,
): string | undefined {
  if (changes === undefined) return undefined;
  const url = new URL(request.url, "http://localhost");
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) if (!LEFT_OUT.test(name)) kept.append(name, value);
  kept.set("changes-since", formatCursor(changes.next));
  return `${baseUrl}${url.pathname}?${kept.toString()}`;
}
