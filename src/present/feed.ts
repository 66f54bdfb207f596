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
  const { start, end } = feedParts(head);
  return start + entries.join("") + end;
}

/** A feed document's text before its entries and after them: a long feed written entry by entry. */
export function feedParts(head: FeedHead): { readonly start: string; readonly end: string } {
  return {
    start:
      `${XML_DECLARATION}\n<feed${FEED_NAMESPACES}>` +
      titleElement(head.title) +
      element("id", {}, head.id) +
      element("link", { rel: "alternate", type: "text/html", href: head.alternate }) +
      `<author>${element("name", {}, head.viewer.name)}${element("email", {}, head.viewer.email)}${element("uri", {}, formatPair(head.viewer.id))}</author>` +
      element("updated", {}, utcTimestamp(head.updated)) +
      (head.extra ?? ""),
    end: "</feed>\n",
  };
}

/** `<author>` of an entry: name and uri = user id. */
export function authorElement(name: string, userId: number): string {
  return `<author>${element("name", {}, name)}${element("uri", {}, formatPair(userId))}</author>`;
}

/** The author of an item that has none: Atom's schema still requires a `name`, and clients ignore it. */
export const EMPTY_AUTHOR = "<author><name/></author>";

/** An item entry's common fields, which every entry holds in the order of docs/api.md "Answers". */
export interface EntryHead {
  readonly id: string;
  readonly title: string;
  readonly links: WebLinks;
  /** Category terms after the id's own kinds, such as `GOOD`. */
  readonly terms?: readonly string[];
  /** The serialised `<author>` elements: `authorElement`, or `EMPTY_AUTHOR`. */
  readonly author: string;
  readonly updated: number;
  readonly summary: string;
}

/** An `<entry>`: the common fields, then `rest` (the item's own, already serialised). */
export function itemEntry(head: EntryHead, rest: string): string {
  return (
    "<entry>" +
    element("id", {}, head.id) +
    titleElement(head.title) +
    webLinkElements(head.links) +
    categoryElements(head.id) +
    (head.terms ?? []).map((term) => element("category", { term })).join("") +
    head.author +
    element("updated", {}, utcTimestamp(head.updated)) +
    summaryElement(head.summary) +
    rest +
    "</entry>"
  );
}

/** What an authored item (topic, task, file) gives its entry: its title, its author, its last update. */
export interface Authored {
  readonly title: string;
  readonly authorName: string;
  readonly authorId: number;
  readonly updatedAt: number;
}

/** The entry head of an authored item. */
export function authoredHead(id: string, links: WebLinks, item: Authored, summary: string): EntryHead {
  const author = authorElement(item.authorName, item.authorId);
  return { id, title: item.title, links, author, updated: item.updatedAt, summary };
}

/** An item's web page and its mobile page. */
export interface WebLinks {
  readonly alternate: string;
  readonly mobile: string;
}

/** `<link rel="alternate">` then `<link rel="mobile">`, the order clients rely on. */
export function webLinkElements(links: WebLinks): string {
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

/** The newest `updatedAt` of the items, or `fallback` for an empty list. */
export function newestOf(items: readonly { readonly updatedAt: number }[], fallback: number): number {
  return items.length === 0 ? fallback : Math.max(...items.map((item) => item.updatedAt));
}
