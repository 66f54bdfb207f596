import type { FastifyRequest } from "fastify";
import { type XmlElement, parseXml } from "../atom/parse.js";
import { UnsupportedMediaTypeError, ValidationError } from "../domain/errors.js";
import { mediaType } from "../http-kit/form.js";

/** XML types clients send for Atom bodies; a missing type is tolerated (some clients send none). */
function isXmlType(type: string): boolean {
  return type === "" || type === "application/xml" || type === "text/xml" || type.endsWith("+xml");
}

/**
 * Parses an Atom request body with the hardened parser (`parse`: only the chat push endpoint
 * passes its own, atom/lenient.ts).
 * @throws UnsupportedMediaTypeError UNSUPPORTED_MEDIA_TYPE; ValidationError BODY_REQUIRED; XmlParseError
 */
export function readXmlBody(request: FastifyRequest, parse: (source: string) => XmlElement = parseXml): XmlElement {
  const type = mediaType(request);
  if (!isXmlType(type)) {
    throw new UnsupportedMediaTypeError(
      "UNSUPPORTED_MEDIA_TYPE",
      `This endpoint reads Atom XML (application/atom+xml); the body was sent as ${type}.`,
    );
  }
  const body = typeof request.body === "string" ? request.body : "";
  if (body.trim() === "")
    throw new ValidationError("BODY_REQUIRED", "The request body is empty; an Atom feed was expected.");
  return parse(body);
}
