// The chat push endpoint's one leniency (docs/api.md "Chat"): a chat bot of the original escapes
// `<` and `>` in its messages but not `&`. Only that endpoint calls this; everywhere else a bare
// `&` stays the well-formedness error the hardened parser makes of it.
import { type XmlElement, parseXml } from "./parse.js";

// `&` that begins a character reference or a (syntactically) named entity reference. An undeclared
// name such as `&foo;` is still a reference: the parser refuses it as before.
const BARE_AMPERSAND = /&(?!(?:#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z_:][A-Za-z0-9_.:-]*);)/g;
// CDATA sections take `&` literally already: left as they are.
const CDATA = /(<!\[CDATA\[[\s\S]*?\]\]>)/;

/** Writes each `&` that does not begin a reference as `&amp;`, outside CDATA sections. */
export function escapeBareAmpersands(source: string): string {
  return source
    .split(CDATA)
    .map((part, index) => (index % 2 === 1 ? part : part.replace(BARE_AMPERSAND, "&amp;")))
    .join("");
}

/**
 * Parses with the hardened parser after {@link escapeBareAmpersands}: DOCTYPE and entity
 * declarations are refused exactly as by `parseXml`. @throws XmlParseError
 */
export function parseXmlLenientAmpersands(source: string): XmlElement {
  return parseXml(escapeBareAmpersands(source));
}
