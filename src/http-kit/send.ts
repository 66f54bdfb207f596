// Answers with their content types and the headers that go with them: feeds, pages, OAuth
// credential forms, downloads.
import type { FastifyReply } from "fastify";

/** Sends a feed: always 200 (docs/api.md "Answers"), Atom content type. */
export function sendFeed(reply: FastifyReply, xml: string): FastifyReply {
  return reply.code(200).header("content-type", "application/atom+xml; charset=utf-8").send(xml);
}

/** Sends an OAuth credentials response: `application/x-www-form-urlencoded` (docs/api.md "OAuth"). */
export function sendForm(reply: FastifyReply, fields: Readonly<Record<string, string>>): FastifyReply {
  const body = Object.entries(fields)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join("&");
  return reply
    .code(200)
    .header("content-type", "application/x-www-form-urlencoded")
    .header("cache-control", "no-store")
    .send(body);
}

/**
 * Response headers of every HTML page: no inline script or style can run (nothing here needs
 * them), no framing (clickjacking the Approve button), no caching of pages that carry form tokens.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** Sends an HTML page with the security headers every page carries. */
export function sendPage(reply: FastifyReply, status: number, document: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(document);
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII `filename` for old clients, and the
 * exact name as UTF-8 in `filename*` (RFC 5987) for the rest.
 */
export function contentDisposition(fileName: string, kind: "attachment" | "inline" = "attachment"): string {
  // Anything outside printable ASCII, and the characters that quoting or decoding would trip on.
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
