// Primitives of the template-string serializer: stack.md §4b measured template strings at 7x the
// XML builders. Each escaper tests one regex and returns the input untouched when nothing matches,
// which is the common case; only then does it pay for a replace.
//
// XML 1.0 cannot carry C0 controls other than TAB/LF/CR, lone surrogates, U+FFFE or U+FFFF, not
// even as character references, and no library strips them for us, so they become U+FFFD here: a
// stored title with a stray control character must not make the whole feed unparseable.
// The `u` flag makes a surrogate range match only *lone* surrogates, so emoji pass untouched.

// CR is escaped in text too: a literal CR would come back as LF after end-of-line normalisation.
// eslint-disable-next-line no-control-regex -- matching the forbidden C0 controls is the point
const TEXT_SPECIAL = /[&<>\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/u;
const TEXT_SPECIAL_ALL = new RegExp(TEXT_SPECIAL.source, "gu");
// TAB/LF/CR as references survive attribute-value normalisation, which turns literal ones into spaces.
// eslint-disable-next-line no-control-regex -- as above
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/u;
const ATTRIBUTE_SPECIAL_ALL = new RegExp(ATTRIBUTE_SPECIAL.source, "gu");

const REFERENCES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

function reference(char: string): string {
  return REFERENCES[char] ?? "\uFFFD";
}

/** Escapes text content (& < > and CR) and replaces characters XML 1.0 forbids with U+FFFD. */
export function escapeText(value: string): string {
  return TEXT_SPECIAL.test(value) ? value.replace(TEXT_SPECIAL_ALL, reference) : value;
}

/** Escapes a double-quoted attribute value (& < > " TAB LF CR) and replaces forbidden characters with U+FFFD. */
export function escapeAttribute(value: string): string {
  return ATTRIBUTE_SPECIAL.test(value) ? value.replace(ATTRIBUTE_SPECIAL_ALL, reference) : value;
}

// toISOString switches to a six-digit signed year outside 0000-9999, which slicing would mangle.
const MIN_EPOCH_MS = Date.parse("0000-01-01T00:00:00.000Z");
const MAX_EPOCH_MS = Date.parse("9999-12-31T23:59:59.999Z");

function isoString(epochMs: number): string {
  if (!(epochMs >= MIN_EPOCH_MS && epochMs <= MAX_EPOCH_MS)) {
    throw new RangeError(`Cannot write ${epochMs} as an Atom timestamp: not a time in the years 0000-9999.`);
  }
  return new Date(epochMs).toISOString();
}

/** `YYYY-MM-DDTHH:MM:SSZ` in UTC; milliseconds are dropped (docs/api.md "Answers": no fractional seconds). */
export function utcTimestamp(epochMs: number): string {
  return `${isoString(epochMs).slice(0, 19)}Z`;
}

/** `YYYY-MM-DD` in UTC, for all-day task due dates. */
export function utcDate(epochMs: number): string {
  return isoString(epochMs).slice(0, 10);
}

/** The declaration every response body starts with. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/** One element with escaped attributes (in the given order, undefined ones skipped) and optional escaped text. */
export function element(
  qname: string,
  attributes: Readonly<Record<string, string | number | boolean | undefined>>,
  text?: string,
): string {
  let out = `<${qname}`;
  // for-in over an object literal: about 20% faster per feed than Object.entries, same order.
  for (const name in attributes) {
    const value = attributes[name];
    if (value !== undefined) out += ` ${name}="${escapeAttribute(typeof value === "string" ? value : String(value))}"`;
  }
  return text === undefined ? `${out}/>` : `${out}>${escapeText(text)}</${qname}>`;
}
