// Browsers' form posts: their fields, and the tokens that prove the form was ours.
import { timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import { ValidationError } from "../domain/errors.js";
import { hasNonXmlCharacter } from "../domain/text.js";
import { clip } from "./query.js";

/** The media type of a request without its parameters, lower-cased; "" when absent. */
export function mediaType(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** The fields of a browser's form POST (`application/x-www-form-urlencoded`); empty for any other body. */
export function formFields(request: FastifyRequest): URLSearchParams {
  const body = typeof request.body === "string" ? request.body : "";
  return new URLSearchParams(mediaType(request) === "application/x-www-form-urlencoded" ? body : "");
}

/**
 * Whether a form's token is the expected one, in time that does not depend on where they differ:
 * a page's form tokens are secrets an attacker could otherwise guess a character at a time.
 */
export function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent, "utf8");
  const b = Buffer.from(expected, "utf8");
  // timingSafeEqual needs equal lengths; the length of a random token tells nothing.
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Refuses a form whose field holds a character no text of Kairan may hold (see
 * `hasNonXmlCharacter`): browsers send what a page's script or a pasted text put there, and such a
 * value must be a clear refusal, never stored on one database and a fault on the other.
 * @throws ValidationError `INVALID_CHARACTER`
 */
export function refuseNonXmlCharacters(fields: Iterable<readonly [string, string]>): void {
  for (const [name, value] of fields)
    if (hasNonXmlCharacter(value) || hasNonXmlCharacter(name))
      throw new ValidationError(
        "INVALID_CHARACTER",
        `The field "${clip(name).replace(/[^\x20-\x7e]/g, "?")}" holds a control character; text may hold tabs and line breaks, no other.`,
      );
}
