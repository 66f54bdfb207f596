import { refuseChanges } from "../../../domain/changes.js";
import { ValidationError } from "../../../domain/errors.js";
import { API_DEFAULT_SEARCH_KINDS, parseSearchKind, parseSearchQuery } from "../../../domain/search.js";
import type { SearchInput } from "../../../services/search/search.js";
import { readGroupId, readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";

/**
 * `GET /api/search/V2`: `q` (required), `group`, `category` (one of
 * BOARD, COMMENT, TASK, CABINET, G_SCHEDULE, M_SCHEDULE, M_CHAT, GROUP, any letter case) and paging. Returns the query as typed, too.
 * @throws ValidationError PARAMETER_REQUIRED, CHANGES_NOT_SUPPORTED, SEARCH_QUERY_TOO_LONG, SEARCH_QUERY_EMPTY, INVALID_CATEGORY,
 *   INVALID_GROUP, INVALID_START_INDEX, INVALID_MAX_RESULTS
 */
export function readSearchQuery(query: QueryValues): SearchInput & { readonly text: string } {
  const text = queryValue(query, "q");
  if (text === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter q is required.");
  // Results are matches of a text over many lists, ranked: there is no list whose changes a cursor
  // could count (docs/api.md "Delta sync"); each list's own feed has them.
  if (queryValue(query, "changes-since") !== undefined)
    refuseChanges("search results (a ranked match over many lists): follow each list's own feed");
  const group = queryValue(query, "group")?.trim();
  return {
    text,
    query: parseSearchQuery(text),
    kind: parseSearchKind(queryValue(query, "category")),
    among: API_DEFAULT_SEARCH_KINDS,
    groupId: group === undefined || group === "" ? null : readGroupId(group, "group"),
    page: readPage(query),
  };
}

/** A search for chat messages is never kept by the feed cache: messages move no change version. */
export function isSearchCacheable(query: QueryValues): boolean {
  return queryValue(query, "category")?.trim().toUpperCase() !== "M_CHAT";
}
