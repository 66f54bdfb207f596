// WebSub discovery in every feed: `<link rel="hub">` (this site's hub) and `<link rel="self">`
// (the feed's own address, without credentials), written after every element of the feed's head,
// so the links clients read by position keep their places.
import { element } from "../atom/build.js";
import { hubUrl } from "../services/websub/context.js";

/** Query parameters that carry credentials: never part of a feed's own address. */
const CREDENTIAL_PARAMETER = /^oauth_|token|secret|signature/i;

/**
 * The feed's own address: the base, the request's path and its parameters without credentials,
 * written one way whatever the request's spelling (`entry=GROUP,1:1` and `entry=GROUP%2C1%3A1`
 * name one feed, and the If-Match tag of an item's feed must not depend on it).
 */
export function selfHref(baseUrl: string, requestUrl: string): string {
  const url = new URL(requestUrl, "http://localhost");
  const parameters = url.searchParams;
  for (const name of [...parameters.keys()]) if (CREDENTIAL_PARAMETER.test(name)) parameters.delete(name);
  const query = parameters.toString();
  return `${baseUrl}${url.pathname}${query === "" ? "" : `?${query}`}`;
}

/**
 * An item's own feed (`GET <path>?entry=<id>`) as that GET answers it, the WebSub links included:
 * what an If-Match tag is the hash of (http/precondition.ts). The id is the feed's first entry's.
 */
export function withOwnFeedLinks(xml: string, baseUrl: string, path: string): string {
  const id = /<entry(?:\s[^>]*)?><id>([^<]*)<\/id>/.exec(xml)?.[1];
  if (id === undefined) return xml;
  return withHubLinks(xml, baseUrl, `${path}?${new URLSearchParams({ entry: id }).toString()}`);
}

/** The first entry or tombstone (RFC 6721), found in one pass. */
const HEAD_END = /<(?:entry[\s>]|at:deleted-entry[\s>/])/g;

/** `xml` (a feed document) with the hub and self links at the end of its head; any other document as it is. */
export function withHubLinks(xml: string, baseUrl: string, requestUrl: string): string {
  const feedStart = xml.indexOf("<feed");
  if (feedStart === -1 || feedStart > 200) return xml;
  // The head ends where the first entry or tombstone starts (or the feed, when it has neither).
  HEAD_END.lastIndex = feedStart;
  const at = HEAD_END.exec(xml)?.index ?? xml.lastIndexOf("</feed>");
  if (at === -1) return xml;
  const links =
    element("link", { rel: "hub", href: hubUrl(baseUrl) }) +
    element("link", { rel: "self", type: "application/atom+xml", href: selfHref(baseUrl, requestUrl) });
  return xml.slice(0, at) + links + xml.slice(at);
}
