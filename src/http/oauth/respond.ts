import type { FastifyReply, FastifyRequest } from "fastify";
import { PAGE_HEADERS } from "../../web/layout.js";

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

/** Sends an HTML page with the security headers every page carries. */
export function sendPage(reply: FastifyReply, status: number, document: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).send(document);
}

/** The fields of a browser's form POST; empty for any other body. */
export function formFields(request: FastifyRequest): URLSearchParams {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  return new URLSearchParams(
    type === "application/x-www-form-urlencoded" && typeof request.body === "string" ? request.body : "",
  );
}

/** The callback URL with parameters added to its query, keeping what it already carries. */
export function callbackWith(callback: string, fields: Readonly<Record<string, string>>): string {
  const hash = callback.indexOf("#");
  const base = hash === -1 ? callback : callback.slice(0, hash);
  const added = new URLSearchParams(fields).toString();
  return `${base}${base.includes("?") ? "&" : "?"}${added}`;
}
