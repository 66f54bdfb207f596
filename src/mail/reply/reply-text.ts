// The text a person wrote in a reply by mail: the message's text with the quoted message and the
// signature taken away by email-reply-parser, behind a small pre-pass (docs/operations.md
// "Replies by mail"). The pre-pass does two things the library cannot:
//  - it turns the quote headers the library misses (Japanese clients, Outlook's header block
//    without an address, quote-headers.ts) into one it knows, so their quote goes too;
//  - it keeps the library's regular expressions away from input that makes them slow: without
//    the optional RE2 engine, four of its patterns span lines ([\s\S]+) and took seconds on 8 KB
//    of crafted lines, and per-line ones grow with the line's length. Such lines (and every line
//    over 256 characters, which is prose) are replaced by placeholders while it runs, then put back.
import EmailReplyParser from "email-reply-parser";
import { TooLargeError } from "../../domain/errors.js";
import { MAIL_REPLY_LIMITS } from "../../domain/limits.js";
import { extraQuoteHeaders, firstQuoteLine } from "./quote-headers.js";

/** Longer lines are prose: the library never sees them (it sees a placeholder). */
const LONG_LINE = 256;
/** Where the library's line-spanning patterns (Dutch, Polish, Chinese, Danish headers) could start. */
const SPANNING_START = /^\s*(?:(?:Op|W|Dnia)(?:\s|$)|[a-z]{3,4}\.(?:\s|$))|^在/u;
// eslint-disable-next-line no-control-regex -- removing what no comment can hold is the point
const NOT_STORABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff\ufffe\uffff]/g;
// eslint-disable-next-line no-control-regex -- a placeholder is made of a character no input keeps
const PLACEHOLDER = /^(>*)\u0001(\d+)\u0001$/;
const HEADER_LETTERS = "originalmessage";

/**
 * The reply's own text: no quoted message, no signature, no blank lines around it; "" when
 * nothing is left.
 * @throws TooLargeError REPLY_TEXT_TOO_LONG (over 64 K characters even without its quoted part)
 */
export function replyText(text: string): string {
  let lines = text.replace(/\r\n?/g, "\n").replace(NOT_STORABLE, "").split("\n");
  if (lines.reduce((sum, line) => sum + line.length + 1, 0) > MAIL_REPLY_LIMITS.textMaxChars) {
    lines = lines.slice(0, firstQuoteLine(lines) ?? lines.length);
    if (lines.reduce((sum, line) => sum + line.length + 1, 0) > MAIL_REPLY_LIMITS.textMaxChars) {
      throw new TooLargeError(
        "REPLY_TEXT_TOO_LONG",
        `The reply is longer than ${MAIL_REPLY_LIMITS.textMaxChars} characters.`,
      );
    }
  }
  const { shielded, originals } = shield(lines);
  const visible = new EmailReplyParser().parseReply(shielded.join("\n"));
  return visible
    .split("\n")
    .map((line) => originals.get(line) ?? restorePlaceholder(line, originals))
    .join("\n")
    .replace(/^(?:[ \t\u3000]*\n)+/, "")
    .trimEnd();
}

/** The lines as the library gets them, and what each stand-in line was. */
function shield(lines: readonly string[]): { shielded: string[]; originals: Map<string, string> } {
  const headers = extraQuoteHeaders(lines);
  const originals = new Map<string, string>();
  const shielded: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const span = headers.get(i);
    if (span !== undefined && originals.size < 2 ** HEADER_LETTERS.length) {
      const marker = headerMarker(originals.size);
      originals.set(marker, lines.slice(i, i + span).join("\n"));
      // A wrapped header's second line becomes blank: the library's quote begins at the marker.
      shielded.push(marker, ...Array.from({ length: span - 1 }, () => ""));
      i += span - 1;
    } else if (line.length > LONG_LINE || SPANNING_START.test(line)) {
      const key = `\u0001${originals.size}\u0001`;
      originals.set(key, line);
      shielded.push(`${/^>*/.exec(line)?.[0] ?? ""}${key}`);
    } else {
      shielded.push(line);
    }
  }
  return { shielded, originals };
}

/** A header the library knows (`-----Original Message-----`), told apart from the others by the case of its letters. */
function headerMarker(n: number): string {
  const letters = [...HEADER_LETTERS].map((char, i) => ((n >> i) & 1 ? char.toUpperCase() : char));
  return `-----${letters.slice(0, 8).join("")} ${letters.slice(8).join("")}-----`;
}

function restorePlaceholder(line: string, originals: ReadonlyMap<string, string>): string {
  const match = PLACEHOLDER.exec(line);
  return match === null ? line : (originals.get(`\u0001${match[2]}\u0001`) ?? line);
}
