import assert from "node:assert/strict";
import { NS } from "../../src/atom/namespaces.js";
import { type XmlElement, child, childText, children, parseXml } from "../../src/atom/parse.js";

/** A response with its body, parsed when it is XML. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The parsed document (namespace-aware); throws when the body is not XML. */
  readonly xml: XmlElement;
}

/** Sends a real HTTP request. `token` adds `Authorization: Bearer`. */
export async function request(
  url: string,
  options: {
    method?: string;
    token?: string;
    body?: string;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined)
    headers["content-type"] = options.contentType ?? "application/atom+xml; charset=utf-8";
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers,
    body: options.body,
  });
  const text = await response.text();
  let parsed: XmlElement | undefined;
  return {
    status: response.status,
    headers: response.headers,
    text,
    get xml() {
      parsed ??= parseXml(text);
      return parsed;
    },
  };
}

/** Namespace declarations clients write in requests (the prefixes real clients declare). */
export const CLIENT_NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblCmnt="http://schemas.cybozulive.com/comment/2010"';

/** Asserts an `<error code=...>` document with this status and code. */
export function assertError(answer: Answer, status: number, code: string): void {
  assert.equal(answer.status, status, `expected ${status} ${code}, got ${answer.status}: ${answer.text}`);
  assert.match(answer.headers.get("content-type") ?? "", /xml/);
  assert.equal(answer.xml.local, "error");
  assert.equal(answer.xml.attributes.get("code"), code, answer.text);
  assert.ok(answer.xml.text.length > 0, "the error text says what was wrong");
}

/** The entries of a feed. */
export function entriesOf(feed: XmlElement): XmlElement[] {
  assert.equal(feed.ns, NS.atom);
  assert.equal(feed.local, "feed");
  return children(feed, NS.atom, "entry");
}

/** An Atom child's text. */
export function atomText(element: XmlElement, name: string): string | undefined {
  return childText(element, NS.atom, name);
}

/** A namespaced child element. */
export function nsChild(element: XmlElement, prefix: keyof typeof NS, name: string): XmlElement | undefined {
  return child(element, NS[prefix], name);
}
