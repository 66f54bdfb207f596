// Hardened, namespace-aware reader for request bodies. Atom has no DTD, so any DOCTYPE is refused
// before it can declare an entity: that single rule closes billion laughs, quadratic blowup, XXE
// and external DTDs at once (stack.md §4c). saxes itself never fetches anything and knows only the
// five predefined entities, so an undeclared `&name;` is a well-formedness error, never a literal.
import { SaxesParser } from "saxes";
import type { SaxesTagNS } from "saxes";

/** One element of a parsed request body, with names resolved to namespace URIs. */
export interface XmlElement {
  readonly ns: string;
  readonly local: string;
  /** Un-namespaced attributes by local name, namespaced ones as `{uri}local`; no xmlns declarations. */
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: readonly XmlElement[];
  /** The element's own text and CDATA children, concatenated (descendants' text excluded). */
  readonly text: string;
}

/** Why a body was refused; each maps to one 400/413 error code at the HTTP edge. */
export type XmlErrorCode =
  "XML_MALFORMED" | "XML_DOCTYPE_FORBIDDEN" | "XML_TOO_DEEP" | "XML_TOO_LARGE" | "XML_TOO_MANY_ELEMENTS";

/** A request body that is not acceptable XML; the message is for a person and never echoes the body. */
export class XmlParseError extends Error {
  override readonly name = "XmlParseError";

  constructor(
    readonly code: XmlErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Caps applied to every parse; the defaults fit any real request of this API with a wide margin. */
export interface XmlLimits {
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly maxElements: number;
}

/** Default caps: 1 MiB of UTF-8, 32 levels of nesting, 10,000 elements. */
export const XML_LIMITS: XmlLimits = Object.freeze({ maxBytes: 1_048_576, maxDepth: 32, maxElements: 10_000 });

const XMLNS_URI = "http://www.w3.org/2000/xmlns/";
// saxes quotes names it fails on; a 1 MB tag name must not come back in an error body.
const MAX_DETAIL = 200;

interface OpenElement {
  readonly ns: string;
  readonly local: string;
  readonly attributes: Map<string, string>;
  readonly children: XmlElement[];
  text: string;
}

/** Parses a whole document and returns its root element. @throws XmlParseError */
export function parseXml(source: string, limits: XmlLimits = XML_LIMITS): XmlElement {
  const bytes = Buffer.byteLength(source, "utf8");
  if (bytes > limits.maxBytes) {
    throw new XmlParseError(
      "XML_TOO_LARGE",
      `The XML body is ${bytes} bytes long; at most ${limits.maxBytes} are accepted.`,
    );
  }
  const parser: Parser = new SaxesParser({ xmlns: true, position: true });
  const tree = buildTree(parser, limits);
  try {
    parser.write(source).close();
  } catch (error) {
    throw error instanceof XmlParseError ? error : fromSaxes(error);
  }
  const root = tree.root();
  // saxes already refuses a document without a root; this only satisfies the type.
  if (root === undefined) throw new XmlParseError("XML_MALFORMED", "The XML body has no root element.");
  return root;
}

type Parser = SaxesParser<{ xmlns: true; position: true }>;

// Handlers throw to stop saxes at once: it has no abort, and an error handler would let it go on.
function buildTree(parser: Parser, limits: XmlLimits): { readonly root: () => XmlElement | undefined } {
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  parser.on("doctype", () => {
    const message = `A DOCTYPE declaration is not allowed (it ends at ${where(parser)}); entities and DTDs are never processed.`;
    throw new XmlParseError("XML_DOCTYPE_FORBIDDEN", message);
  });
  parser.on("opentag", (tag) => {
    count += 1;
    if (count > limits.maxElements) {
      throw new XmlParseError("XML_TOO_MANY_ELEMENTS", `The XML body has more than ${limits.maxElements} elements.`);
    }
    if (stack.length >= limits.maxDepth) {
      throw new XmlParseError(
        "XML_TOO_DEEP",
        `Elements are nested more than ${limits.maxDepth} levels deep (at ${where(parser)}).`,
      );
    }
    const element = openElement(tag);
    const parent = stack.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    stack.push(element);
  });
  parser.on("closetag", () => void stack.pop());
  parser.on("text", (text) => appendText(stack, text));
  parser.on("cdata", (text) => appendText(stack, text));
  return { root: () => root };
}

function openElement(tag: SaxesTagNS): OpenElement {
  const attributes = new Map<string, string>();
  for (const attribute of Object.values(tag.attributes)) {
    // Namespace declarations are how the body is spelled, not data: a client may use any prefix.
    if (attribute.uri === XMLNS_URI) continue;
    const key = attribute.uri === "" ? attribute.local : `{${attribute.uri}}${attribute.local}`;
    attributes.set(key, attribute.value);
  }
  return { ns: tag.uri, local: tag.local, attributes, children: [], text: "" };
}

function appendText(stack: readonly OpenElement[], text: string): void {
  // Whitespace around the root is legal and reported too; it belongs to no element.
  const current = stack.at(-1);
  if (current !== undefined) current.text += text;
}

function where(parser: Parser): string {
  return `line ${parser.line}, column ${parser.column}`;
}

function fromSaxes(error: unknown): XmlParseError {
  const raw = error instanceof Error ? error.message : String(error);
  // saxes writes "line:column: message."; turn it around into a sentence with the position last.
  const match = /^(\d+):(\d+): ([\s\S]*?)\.?$/.exec(raw);
  const detail = truncate(match?.[3] ?? raw);
  const position = match === null ? "" : ` (line ${match[1]}, column ${match[2]})`;
  // A DOCTYPE after or inside the root fails in saxes before our handler runs; it is still a DOCTYPE.
  if (detail === "inappropriately located doctype declaration") {
    return new XmlParseError(
      "XML_DOCTYPE_FORBIDDEN",
      `A DOCTYPE declaration is not allowed, least of all after the root element starts${position}.`,
    );
  }
  return new XmlParseError("XML_MALFORMED", `The XML body is not well-formed: ${detail}${position}.`);
}

function truncate(text: string): string {
  return text.length <= MAX_DETAIL ? text : `${text.slice(0, MAX_DETAIL)}…`;
}

/** The first child element with this namespace URI and local name. */
export function child(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  return el.children.find((c) => c.local === local && c.ns === ns);
}

/** Every child element with this namespace URI and local name, in document order. */
export function children(el: XmlElement, ns: string, local: string): XmlElement[] {
  return el.children.filter((c) => c.local === local && c.ns === ns);
}

/** The text of the first matching child element, or undefined when there is none. */
export function childText(el: XmlElement, ns: string, local: string): string | undefined {
  return child(el, ns, local)?.text;
}

/** An attribute's value; pass `ns` only for namespaced attributes (plain ones have no namespace). */
export function attribute(el: XmlElement, local: string, ns?: string): string | undefined {
  return el.attributes.get(ns === undefined || ns === "" ? local : `{${ns}}${local}`);
}
