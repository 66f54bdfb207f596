import { ValidationError } from "../../../domain/errors.js";
import { parseSearchKind, parseSearchQuery } from "../../../domain/search.js";
import type { SearchInput } from "../../../services/search/search.js";
import { readGroupId, readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";

/**
 * `GET /api/search/V2` (and the web's search page): `q` (required), `group`, `category` (one of
 * BOARD, COMMENT, TASK, CABINET, any letter case) and paging. Returns the query as typed, too.
 * @throws ValidationError PARAMETER_REQUIRED, SEARCH_QUERY_TOO_LONG, SEARCH_QUERY_EMPTY, INVALID_CATEGORY,
 *   INVALID_GROUP, INVALID_START_INDEX, INVALID_MAX_RESULTS
 */
export function readSearchQuery(query: QueryValues): SearchInput & { readonly text: string } {
  const text = queryValue(query, "q");
  if (text === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter q is required.");
  const group = queryValue(query, "group")?.trim();
  return {
    text,
    query: parseSearchQuery(text),
    kind: parseSearchKind(queryValue(query, "category")),
    groupId: group === undefined || group === "" ? null : readGroupId(group, "group"),
    page: readPage(query),
  };
}
