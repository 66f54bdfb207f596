// Paging of list pages: `?page=N` (1-based), 20 items a page, one more fetched to know whether
// an older page exists.
import { LIMITS } from "../domain/limits.js";
import { type QueryValues, queryValue } from "../http-kit/query.js";
import type { PageWindow } from "../store/page-window.js";

/** Items per page of every list page. */
export const PAGE_SIZE = LIMITS.pageSizeDefault;

/** The page a list request asks for, and the store page that fetches it plus one item. */
export interface RequestedPage {
  readonly number: number;
  readonly fetch: PageWindow;
}

const PAGE_NUMBER = /^[1-9][0-9]{0,5}$/;

/** `?<name>=N`; anything but a page number reads as the first page. */
export function readPageNumber(query: QueryValues, name = "page"): RequestedPage {
  const text = queryValue(query, name)?.trim() ?? "";
  const number = PAGE_NUMBER.test(text) ? Number(text) : 1;
  return { number, fetch: { offset: (number - 1) * PAGE_SIZE, limit: PAGE_SIZE + 1 } };
}

/** Links to a page's neighbours (undefined where there is none). */
export interface Pager {
  readonly newerHref: string | undefined;
  readonly olderHref: string | undefined;
  readonly number: number;
}

/** One page of items and the links to its neighbours. */
export interface Paged<T> extends Pager {
  readonly items: readonly T[];
}

/** Cuts the extra item off and builds the neighbours' links with `href(n)`. */
export function paged<T>(items: readonly T[], request: RequestedPage, href: (n: number) => string): Paged<T> {
  return {
    items: items.slice(0, PAGE_SIZE),
    newerHref: request.number > 1 ? href(request.number - 1) : undefined,
    olderHref: items.length > PAGE_SIZE ? href(request.number + 1) : undefined,
    number: request.number,
  };
}

/** `path?k=v&...` without empty values; page 1 is left out. */
export function withQuery(path: string, params: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === "" || (key === "page" && value === 1)) continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text === "" ? path : `${path}?${text}`;
}
