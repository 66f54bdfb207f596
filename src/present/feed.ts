import { FEED_NAMESPACES } from "../atom/namespaces.js";
import { XML_DECLARATION, element, escapeText, utcTimestamp } from "../atom/build.js";
import { formatPair } from "../domain/item-id.js";

/** The caller, written as the feed's author: clients read it to learn who they are. */
export interface Viewer {
  readonly id: number;
  readonly name: string;
  readonly email: string;
}

/** Feed-level fields (docs/api.md "Answers": title, id, alternate link, author, updated, then extras). */
export interface FeedHead {
  readonly title: string;
  readonly id: string;
  readonly alternate: string;
  readonly viewer: Viewer;
  readonly updated: number;
  /** Already-serialised elements that follow `updated`, such as `cbl:totalCount`. */
  readonly extra?: string;
}

/** A whole feed document, root namespaces declared once. */
export function feedDocument(head: FeedHead, entries: readonly string[]): string {
  return (
    `${XML_DECLARATION}\n<feed${FEED_NAMESPACES}>` +
    titleElement(head.title) +
    element("id", {}, head.id) +
    element("link", { rel: "alternate", type: "text/html", href: head.alternate }) +
    `<author>${element("name", {}, head.viewer.name)}${element("email", {}, head.viewer.email)}${element("uri", {}, formatPair(head.viewer.id))}</author>` +
    element("updated", {}, utcTimestamp(head.updated)) +
    (head.extra ?? "") +
    entries.join("") +
    "</feed>\n"
  );
}

/** `<author>` of an entry: name and uri = user id. */
export function authorElement(name: string, userId: number): string {
  return `<author>${element("name", {}, name)}${element("uri", {}, formatPair(userId))}</author>`;
}

/** `<link rel="alternate">` then `<link rel="mobile">`, the order clients rely on. */
export function webLinkElements(links: { alternate: string; mobile: string }): string {
  return (
    element("link", { rel: "alternate", type: "text/html", href: links.alternate }) +
    element("link", { rel: "mobile", type: "text/html", href: links.mobile })
  );
}

/** One `<category>` per kind segment of an item id, in id order. */
export function categoryElements(itemId: string): string {
  let out = "";
  const segments = itemId.split(",");
  for (let i = 0; i < segments.length; i += 2) out += element("category", { term: segments[i] });
  return out;
}

/**
 * `<title>` with no attributes, on feeds and entries alike: a notifier bot reads `title[0]` through
 * xml2js as a string, and any attribute turns it into an object (docs/api.md).
 */
export function titleElement(text: string): string {
  return element("title", {}, text);
}

/** `<summary type="text">`: clients read the summary through its attribute, so it keeps it. */
export function summaryElement(text: string): string {
  return `<summary type="text">${escapeText(text)}</summary>`;
}

/** The newest `updated` of the items, or `fallback` for an empty list. */
export function newestOf(times: readonly number[], fallback: number): number {
  return times.length === 0 ? fallback : Math.max(...times);
}
