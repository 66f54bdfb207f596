// People's text on pages: escaped, with its web addresses made into links. Only http and https
// addresses become links (a `javascript:` or `data:` text stays text), the address is taken from
// the characters a URL may contain (so quotes and angle brackets end it, and escaping covers the
// rest), and punctuation that ends a sentence is left outside the link. Line breaks stay in the
// text; the stylesheet keeps them (`white-space: pre-wrap`).
import { SafeHtml, escapeHtml } from "./layout.js";

/**
 * An http(s) address not glued to a word before it, made of the characters RFC 3986 allows: a
 * Japanese sentence that goes on right after an address (`https://example.com/を見て`) ends it.
 */
const ADDRESS = /(?<![A-Za-z0-9+.-])https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/gi;

/** Characters that end a sentence rather than an address when they come last. */
const TRAILING = new Set([".", ",", ";", ":", "!", "?", "'", "*"]);
const CLOSING: Readonly<Record<string, string>> = { ")": "(", "]": "[", "}": "{" };

/**
 * `text` as HTML: escaped, each http(s) address a link with `rel="noopener nofollow"`. The text
 * between addresses goes through `plain` (escaping by default; item pages also link mentions there).
 */
export function linkedText(text: string, plain: (segment: string) => string = escapeHtml): SafeHtml {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index;
    const address = withoutTrailing(match[0]);
    if (!isWebAddress(address)) continue;
    out += plain(text.slice(from, start));
    const escaped = escapeHtml(address);
    out += `<a href="${escaped}" rel="noopener nofollow">${escaped}</a>`;
    from = start + address.length;
  }
  return new SafeHtml(out + plain(text.slice(from)));
}

/** Drops sentence punctuation and closing brackets that have no opening one inside the address. */
function withoutTrailing(address: string): string {
  let end = address.length;
  while (end > 0) {
    const last = address[end - 1] ?? "";
    const opening = CLOSING[last];
    const unbalanced =
      opening !== undefined && count(address.slice(0, end), opening) < count(address.slice(0, end), last);
    if (!TRAILING.has(last) && !unbalanced) break;
    end--;
  }
  return address.slice(0, end);
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** An address a browser reads as http(s) with a host (`https://` alone, or `http://:80`, is text). */
function isWebAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}
