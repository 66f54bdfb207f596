// The lines that introduce quoted text which email-reply-parser 2.3.7 does not know, found before
// it runs (reply-text.ts turns each into a header it does know). Checked against real clients in
// test/mail/reply-text.test.ts: Gmail, Apple Mail and Thunderbird in Japanese, Outlook's header
// block in Japanese or without an address, and any "... wrote:" line right above quoted lines.

/** Gmail (ja): `2026年11月27日(金) 10:00 Alice <a@example.com>:`, sometimes wrapped before the address. */
const GMAIL_JA = /^\d{4}年\d{1,2}月\d{1,2}日\s*[(（][^)）]{1,3}[)）]\s*\d{1,2}:\d{2}\s/u;
/** Apple Mail (ja): `2026/11/27 10:00、Alice <a@example.com>のメール:`. */
const APPLE_JA = /^\d{4}\/\d{1,2}\/\d{1,2}.{0,200}のメール\s*[:：]$/u;
/** Thunderbird (ja): `Alice さんは書きました:`; others: `... が書きました:`. */
const WROTE_JA = /^.{1,200}(?:さんは書きました|が書きました)\s*[:：]$/u;
/** Outlook's separators: `-----元のメッセージ-----` (Outlook ja). */
const ORIGINAL_JA = /^-{2,}\s*元のメッセージ\s*-{2,}$/u;
/** Any attribution line: it ends with "wrote:" (or a colon) and quoted lines follow. */
const ATTRIBUTION = /^.{1,200}(?:wrote|書きました|のメール|のメッセージ)\s*[:：]$/iu;
/** The first line of Outlook's header block: `From:` / `差出人:` ..., then `Sent:`/`送信日時:` and the rest. */
const BLOCK_FIRST = /^\*?(?:From|差出人|送信者)\s*\*?\s*[:：]/iu;
const BLOCK_NEXT = /^\*?(?:Sent|Date|To|Subject|Cc|送信日時|日付|日時|宛先|件名|CC)\s*\*?\s*[:：]/iu;
/** A line this long is prose, never a header (and never searched by the patterns above). */
const HEADER_MAX_CHARS = 300;

/**
 * The indexes of the lines that open quoted text and the parser would miss, with how many lines
 * each header spans (2 when Gmail wrapped it before the address).
 */
export function extraQuoteHeaders(lines: readonly string[]): Map<number, number> {
  const found = new Map<number, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (line.length === 0 || line.length > HEADER_MAX_CHARS) continue;
    if (GMAIL_JA.test(line)) {
      // A date at the start of a line of one's own text is no header: it must end with the colon.
      const span = /[:：]$/u.test(line) ? 1 : wrappedEnd(lines, i);
      if (span > 0) found.set(i, span);
    } else if (APPLE_JA.test(line) || WROTE_JA.test(line) || ORIGINAL_JA.test(line)) {
      found.set(i, 1);
    } else if (ATTRIBUTION.test(line) && quotedNext(lines, i)) {
      // Gmail wraps a long "On ... <" line before the address: the header starts a line earlier.
      const previous = (lines[i - 1] ?? "").trim();
      const wrapped = previous.length <= HEADER_MAX_CHARS && (previous.endsWith("<") || /^On\s.*\d/i.test(previous));
      if (wrapped && !found.has(i - 1)) found.set(i - 1, 2);
      else found.set(i, 1);
    } else if (BLOCK_FIRST.test(line) && blockFollows(lines, i)) {
      found.set(i, 1);
    }
  }
  return found;
}

/** 2 when the next line ends the header (`alice@example.com>:`), else 0 (no header). */
function wrappedEnd(lines: readonly string[], i: number): number {
  const next = (lines[i + 1] ?? "").trim();
  return next.length > 0 && next.length <= HEADER_MAX_CHARS && /[:：]$/u.test(next) && !next.startsWith(">") ? 2 : 0;
}

/** Whether quoted lines (`>`) follow line `i`, after at most one blank line. */
function quotedNext(lines: readonly string[], i: number): boolean {
  const next = (lines[i + 1] ?? "").trim();
  return next.startsWith(">") || (next === "" && (lines[i + 2] ?? "").trim().startsWith(">"));
}

/** Whether one of Outlook's other header lines follows the `From:` line within three lines. */
function blockFollows(lines: readonly string[], i: number): boolean {
  return [1, 2, 3].some((step) => BLOCK_NEXT.test((lines[i + step] ?? "").trim()));
}

/** English headers the parser knows, for {@link firstQuoteLine}. */
const KNOWN_HEADER = /^(?:On\s.{1,250}\swrote:|-{2,}\s*Original Message\s*-{2,}|_{20,})$/iu;

/**
 * The first line that opens quoted text (a header of any kind, or a `>` line), or undefined: where
 * a reply too long for the parser is cut, taking the common case of a reply above the quote.
 */
export function firstQuoteLine(lines: readonly string[]): number | undefined {
  const extra = Math.min(...extraQuoteHeaders(lines).keys());
  for (let i = 0; i < Math.min(lines.length, extra); i++) {
    const line = (lines[i] ?? "").trim();
    if (line.startsWith(">") || (line.length <= HEADER_MAX_CHARS && KNOWN_HEADER.test(line))) return i;
  }
  return Number.isFinite(extra) ? extra : undefined;
}
