// Texts with their @-mentions as links to the named members' pages (docs/api.md "Mentions").
import { formatPair } from "../domain/item-id.js";
import { mentionSpans } from "../domain/mention.js";
import type { Chrome } from "./chrome.js";
import { escapeHtml } from "./layout.js";
import { markdownHtml } from "./markdown.js";

/**
 * A function that turns a text of the group into HTML by the Markdown subset of markdown.ts, whose
 * mentions link to the member each names (`targets`: handle -> member id,
 * services/notification/mention.ts); a handle naming no member stays text.
 */
export function mentionLinker(
  chrome: Chrome,
  groupId: number,
  targets: ReadonlyMap<string, number>,
): (text: string) => string {
  const withMentions = (text: string): string => {
    let html = "";
    let last = 0;
    for (const span of mentionSpans(text)) {
      const memberId = targets.get(span.handle);
      if (memberId === undefined) continue;
      const href = chrome.u(`/g/${formatPair(groupId)}/members/${formatPair(memberId)}`);
      html += `${escapeHtml(text.slice(last, span.start))}<a class="mention" href="${escapeHtml(href)}">${escapeHtml(text.slice(span.start, span.end))}</a>`;
      last = span.end;
    }
    return html + escapeHtml(text.slice(last));
  };
  return (text) => markdownHtml(text, withMentions).value;
}

/** Where a form of the group asks app.js's suggestion list for members (pages/mentions.ts). */
export function mentionSource(chrome: Chrome, groupId: number): string {
  return chrome.u(`/g/${formatPair(groupId)}/mentions`);
}
