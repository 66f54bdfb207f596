// Search queries as people type them: words, "a phrase", -word to exclude (docs/api.md "Search").
import { ValidationError } from "./errors.js";
import { SEARCH_LIMITS } from "./limits.js";

/**
 * The kinds of items search finds, as `category` names them: a group's topics, comments, tasks and
 * files; its events (G_SCHEDULE), the reader's personal events (M_SCHEDULE), messages of the chat
 * rooms the reader is in (M_CHAT), and the reader's groups themselves (GROUP).
 */
export const SEARCH_KINDS = [
  "BOARD",
  "COMMENT",
  "TASK",
  "CABINET",
  "G_SCHEDULE",
  "M_SCHEDULE",
  "M_CHAT",
  "GROUP",
] as const;

/** One of {@link SEARCH_KINDS}. */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * What `/api/search/V2` finds without `category`: a group's content, as before issue 31 (the other
 * kinds only when asked for by `category`, so that a plain search stays kept by the feed cache and
 * as fast as it was).
 */
export const API_DEFAULT_SEARCH_KINDS = [
  "BOARD",
  "COMMENT",
  "TASK",
  "CABINET",
] as const satisfies readonly SearchKind[];

/** Kinds whose hits are text of the `comments` level: comments and chat messages. */
export const COMMENT_LEVEL_SEARCH_KINDS: readonly SearchKind[] = ["COMMENT", "M_CHAT"];

/** Kinds that belong to no group (a group filter leaves them out). */
export const UNGROUPED_SEARCH_KINDS: readonly SearchKind[] = ["M_SCHEDULE", "M_CHAT"];

/**
 * A parsed query. `index`: every term has at least three characters and the trigram index serves
 * it; `scan`: a shorter term, which only a bounded scan of the newest items can match.
 */
export interface SearchQuery {
  /** Terms every hit contains (words and phrases), matched as substrings, ignoring letter case. */
  readonly terms: readonly string[];
  /** Terms no hit contains. */
  readonly excluded: readonly string[];
  readonly mode: "index" | "scan";
}

/**
 * `category`: one kind of `among` in any letter case, or null (every kind) when absent or empty.
 * @throws ValidationError INVALID_CATEGORY
 */
export function parseSearchKind(
  value: string | undefined,
  among: readonly SearchKind[] = SEARCH_KINDS,
): SearchKind | null {
  const text = value?.trim().toUpperCase();
  if (text === undefined || text === "") return null;
  const kind = among.find((known) => known === text);
  if (kind === undefined) {
    const shown = (value ?? "").length > 40 ? `${(value ?? "").slice(0, 40)}…` : value;
    throw new ValidationError("INVALID_CATEGORY", `category must be one of ${among.join(", ")} (got "${shown}").`);
  }
  return kind;
}

/** Half-width and ideographic spaces separate terms (Japanese input methods type U+3000). */
const SPACE = /[\s\u3000]/u;

/**
 * Reads a query: whitespace-separated words, `"quoted phrases"` (an unclosed quote runs to the
 * end), and `-word` or `-"phrase"` to exclude. Duplicates are dropped.
 * @throws ValidationError SEARCH_QUERY_TOO_LONG, SEARCH_QUERY_EMPTY (nothing left to look for)
 */
export function parseSearchQuery(text: string): SearchQuery {
  if ([...text].length > SEARCH_LIMITS.queryMaxChars) {
    throw new ValidationError(
      "SEARCH_QUERY_TOO_LONG",
      `The search query is longer than ${SEARCH_LIMITS.queryMaxChars} characters.`,
    );
  }
  const terms: string[] = [];
  const excluded: string[] = [];
  for (const { term, negated } of tokens(text.normalize("NFC"))) {
    const list = negated ? excluded : terms;
    if (!list.some((known) => known.toLowerCase() === term.toLowerCase())) list.push(term);
  }
  if (terms.length === 0) {
    throw new ValidationError(
      "SEARCH_QUERY_EMPTY",
      "The search query has nothing to look for: give at least one word or phrase that is not excluded.",
    );
  }
  const short = terms.some((term) => [...term].length < SEARCH_LIMITS.indexedTermMinChars);
  return { terms, excluded, mode: short ? "scan" : "index" };
}

function* tokens(text: string): Generator<{ term: string; negated: boolean }> {
  let i = 0;
  while (i < text.length) {
    while (i < text.length && SPACE.test(text[i]!)) i++;
    if (i >= text.length) return;
    let negated = false;
    if (text[i] === "-" && i + 1 < text.length && !SPACE.test(text[i + 1]!)) {
      negated = true;
      i++;
    }
    let term: string;
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1);
      term = text.slice(i + 1, end === -1 ? text.length : end);
      i = end === -1 ? text.length : end + 1;
    } else {
      const start = i;
      while (i < text.length && !SPACE.test(text[i]!)) i++;
      term = text.slice(start, i);
    }
    term = term.trim();
    if (term !== "") yield { term, negated };
  }
}

/** A run of an excerpt, marked when it is a hit of one of the terms. */
export interface ExcerptPart {
  readonly text: string;
  readonly hit: boolean;
}

/**
 * Plain text around the first hit of any term in `text`: up to 40 characters before and after, on
 * one line, with "…" where it was cut; the first characters when no term is found (a hit in
 * another field). Split into parts so that a page can highlight the hits.
 */
export function excerptOf(text: string, terms: readonly string[]): ExcerptPart[] {
  const flat = text.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  const needles = terms.map((term) => term.toLowerCase()).filter((term) => term !== "");
  let first = -1;
  for (const needle of needles) {
    const at = lower.indexOf(needle);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  const context = SEARCH_LIMITS.excerptContextChars;
  const start = first === -1 ? 0 : Math.max(0, first - context);
  let end = first === -1 ? 2 * context : first + context;
  // Keep the whole first hit, however long the term.
  for (const needle of needles)
    if (lower.startsWith(needle, first)) end = Math.max(end, first + needle.length + context);
  end = Math.min(flat.length, end);
  const parts = markHits(flat.slice(start, end), lower.slice(start, end), needles);
  if (start > 0) parts.unshift({ text: "…", hit: false });
  if (end < flat.length) parts.push({ text: "…", hit: false });
  return parts;
}

/** Splits `text` into runs that are hits of a needle and runs that are not (longest needle first). */
function markHits(text: string, lower: string, needles: readonly string[]): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  let plain = 0;
  let i = 0;
  while (i < lower.length) {
    const needle = ordered.find((candidate) => lower.startsWith(candidate, i));
    if (needle === undefined) {
      i++;
      continue;
    }
    if (i > plain) parts.push({ text: text.slice(plain, i), hit: false });
    parts.push({ text: text.slice(i, i + needle.length), hit: true });
    i += needle.length;
    plain = i;
  }
  if (plain < text.length) parts.push({ text: text.slice(plain), hit: false });
  return parts;
}

/** The excerpt as one line of plain text (`cbl:excerpt`). */
export function excerptText(parts: readonly ExcerptPart[]): string {
  return parts.map((part) => part.text).join("");
}
