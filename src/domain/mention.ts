// @-mentions in topic and task bodies and in comments (docs/api.md "Mentions"): how they are
// written, which member a handle names, and what the suggestion list inserts. Pure.
import { LIMITS } from "./limits.js";

/** One `@handle` in a text: where it stands and the handle it names (without `@` and quotes). */
export interface MentionSpan {
  readonly start: number;
  readonly end: number;
  readonly handle: string;
}

/** What a handle is compared with: a user's name and e-mail address. */
export interface MentionCandidate {
  readonly name: string;
  readonly email: string;
}

// `@"Any Name"` (no quote or line break inside), or `@word` of letters, digits, marks and `_.+-`.
const MENTION = /@(?:"([^"\n\r]*)"|([\p{L}\p{N}\p{M}_.+-]+))/gu;
// A character that makes `@` part of a word: an e-mail address (`bob@example.com`) mentions no one.
const WORD_BEFORE = /[\p{L}\p{N}\p{M}_.+@-]/u;
// Sentence punctuation that may follow an unquoted handle: "thanks @bob." names bob.
const TRAILING = /[.+-]+$/u;
const UNQUOTED = /^[\p{L}\p{N}\p{M}_.+-]+$/u;

/** Every mention of a text in order, repeated ones included (for rendering). */
export function mentionSpans(text: string): MentionSpan[] {
  const spans: MentionSpan[] = [];
  for (const match of text.matchAll(MENTION)) {
    const start = match.index;
    if (start > 0 && WORD_BEFORE.test(text.charAt(start - 1))) continue;
    const quoted = match[1];
    if (quoted !== undefined) {
      const handle = quoted.trim();
      if (handle !== "" && [...quoted].length <= LIMITS.mentionQuotedMaxChars)
        spans.push({ start, end: start + match[0].length, handle });
      continue;
    }
    const word = match[2] ?? "";
    const handle = word.replace(TRAILING, "");
    if (handle !== "") spans.push({ start, end: start + 1 + handle.length, handle });
  }
  return spans;
}

/**
 * The distinct handles a text mentions, first ones first, at most {@link LIMITS.mentionsPerText}:
 * a text naming more mentions only the first ones (the resolution is one bounded query).
 */
export function mentionHandles(text: string): string[] {
  const seen = new Map<string, string>();
  for (const span of mentionSpans(text)) {
    const key = handleKey(span.handle);
    if (!seen.has(key)) seen.set(key, span.handle);
    if (seen.size === LIMITS.mentionsPerText) break;
  }
  return [...seen.values()];
}

/** The local part of an e-mail address (before the last `@`). */
export function localPartOf(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0 ? email : email.slice(0, at);
}

/** Whether a handle names this user: their whole name exactly, or their address's local part in any letter case. */
export function handleNames(handle: string, candidate: MentionCandidate): boolean {
  return handle === candidate.name || handleKey(handle) === handleKey(localPartOf(candidate.email));
}

/** Handles that differ only in letter case name the same address. */
function handleKey(handle: string): string {
  return handle.toLowerCase();
}

/**
 * What the suggestion list inserts for a member: `@Name` when the name is one word, `@"Full Name"`
 * when it has spaces or other characters, and `@local-part` when another member has the same name
 * (or the name holds a quote), so that the mention names this member alone.
 */
export function mentionText(candidate: MentionCandidate, nameIsShared: boolean): string {
  const { name } = candidate;
  const quotable = !name.includes('"') && !/[\n\r]/.test(name) && [...name].length <= LIMITS.mentionQuotedMaxChars;
  return written(nameIsShared || !quotable ? localPartOf(candidate.email) : name);
}

function written(handle: string): string {
  return UNQUOTED.test(handle) && !TRAILING.test(handle) ? `@${handle}` : `@"${handle}"`;
}
