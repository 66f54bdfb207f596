// A bounded crawl of the web interface: from a start page, follow every same-origin GET link to a
// page (not a download, a feed or a static file). The checks that must hold on EVERY page (no
// server fault, accessibility, forms that survive any filling) use it, so a page added later is
// checked without anyone listing it. Pages of one kind (one topic or another, page 2 or page 3)
// share a pattern, and only a few of each are visited: the crawl stays bounded however much data
// the site holds.

/** How far a crawl goes. */
export interface CrawlLimits {
  /** Pages visited at most, in all. */
  readonly pages: number;
  /** Pages visited at most per pattern (see `pagePattern`). */
  readonly perPattern: number;
}

/** What visiting one page gave: its HTTP status and the links it holds (raw `href` values). */
export interface Visited {
  readonly status: number;
  readonly links: readonly string[];
}

/** Paths that are not pages: static files, downloads (files, exports), feeds, and signing out. */
const NOT_PAGES = /^\/(?:m\/)?(?:static\/|download|api\/|signout)|\/export$/;

/**
 * The kind of page an address shows: every run of digits becomes `N`, so `/g/1:1/board/1:5` and
 * `/g/1:2/board/1:9` are one kind, and so are `?page=2` and `?page=3`; words are kept, so the
 * trash (`?folder=TRASH`) is another kind than a folder (`?folder=1:2`). The query is sorted.
 */
export function pagePattern(url: URL): string {
  const digits = (text: string) => text.replace(/\d+/g, "N");
  const query = [...url.searchParams]
    .map(([name, value]) => `${name}=${digits(value)}`)
    .sort()
    .join("&");
  return `${digits(url.pathname)}${query ? `?${query}` : ""}`;
}

/** The page address a link leads to, or undefined when it leaves the site or is not a page. */
export function pageLink(href: string, from: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href, from);
  } catch {
    return undefined;
  }
  if (url.origin !== new URL(from).origin || NOT_PAGES.test(url.pathname)) return undefined;
  url.hash = "";
  return url;
}

/**
 * Visits `start`, then the pages its links lead to, breadth first, within `limits`; `visit` loads
 * one page (and checks it) and returns its status and links. Returns the addresses visited, in order.
 */
export async function crawl(
  start: string,
  visit: (url: string) => Promise<Visited>,
  limits: CrawlLimits,
): Promise<string[]> {
  const queue = [start];
  const seen = new Set(queue);
  const perPattern = new Map<string, number>();
  const visited: string[] = [];
  while (queue.length > 0 && visited.length < limits.pages) {
    const url = queue.shift() ?? "";
    const pattern = pagePattern(new URL(url));
    const count = perPattern.get(pattern) ?? 0;
    if (count >= limits.perPattern) continue;
    perPattern.set(pattern, count + 1);
    visited.push(url);
    const page = await visit(url);
    for (const href of page.links) {
      const next = pageLink(href, url)?.href;
      if (next !== undefined && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return visited;
}
