// The search-and-page block that /admin/users and /admin/groups share: a search text of at most
// 200 characters, pages by id (`after`), and the links to the next and the first page.
import { queryValue } from "../../http-kit/query.js";
import { withQuery } from "../paging.js";
import type { AdminPageRequest } from "./admin-guard.js";

const AFTER = /^[0-9]{1,12}$/;
const SEARCH_MAX_CHARS = 200;

/** What a list page was asked for: the search text and the id after which the page starts. */
export interface AdminListQuery {
  readonly text: string;
  readonly afterId: number;
}

/** Reads `q` and `after` (a malformed `after` is the first page). */
export function readAdminListQuery(page: AdminPageRequest): AdminListQuery {
  const text = (queryValue(page.query, "q") ?? "").trim().slice(0, SEARCH_MAX_CHARS);
  const after = queryValue(page.query, "after") ?? "";
  return { text, afterId: AFTER.test(after) ? Number(after) : 0 };
}

/** The links of a list page at `path`: to the next page when there is one, to the first when not on it. */
export function adminListLinks(
  page: AdminPageRequest,
  path: string,
  query: AdminListQuery,
  nextAfter: number | undefined,
): { nextHref: string | undefined; firstHref: string | undefined } {
  return {
    nextHref: nextAfter === undefined ? undefined : page.chrome.u(withQuery(path, { q: query.text, after: nextAfter })),
    firstHref: query.afterId > 0 ? page.chrome.u(withQuery(path, { q: query.text })) : undefined,
  };
}
