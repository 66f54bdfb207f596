import { element } from "../atom/build.js";
import type { Locale } from "../domain/task.js";
import { excerptText } from "../domain/search.js";
import type { FoundItem, SearchView } from "../services/search/search.js";
import { chatMessageEntry } from "./chat.js";
import { commentEntry } from "./comment.js";
import { eventEntry } from "./event.js";
import { groupEntry } from "./group.js";
import { personalEventEntry } from "./schedule.js";
import { type Viewer, feedDocument } from "./feed.js";
import { fileEntry } from "./file.js";
import { taskEntry } from "./task.js";
import { topicEntry } from "./topic.js";

/** The web page of a search, which is also the search feed's id and alternate link. */
export function searchPageUrl(baseUrl: string, text: string): string {
  return `${baseUrl}/search?q=${encodeURIComponent(text)}`;
}

/**
 * `GET /api/search/V2`: the hits newest first, each entry as its own feed writes it plus
 * `cbl:excerpt`; after the head `cbl:totalCount` (with `cbl:totalCountBounded` when a kind had more
 * hits than are counted), and `cbl:searchMode` `scan` when a short term
 * made it scan instead of using the index.
 */
export function searchFeed(
  baseUrl: string,
  viewer: Viewer,
  view: SearchView,
  options: { text: string; locale: Locale; now: number },
): string {
  const extra =
    element("cbl:totalCount", {}, String(view.total)) +
    (view.bounded ? element("cbl:totalCountBounded", {}, "true") : "") +
    (view.query.mode === "scan" ? element("cbl:searchMode", {}, "scan") : "");
  const url = searchPageUrl(baseUrl, options.text);
  return feedDocument(
    {
      title: options.text,
      id: url,
      alternate: url,
      viewer,
      updated: view.items.reduce((newest, item) => Math.max(newest, updatedOf(item)), 0) || options.now,
      extra,
    },
    view.items.map((item) =>
      withExcerpt(itemEntryOf(baseUrl, viewer, item, options.locale), excerptText(item.excerpt)),
    ),
  );
}

function itemEntryOf(baseUrl: string, viewer: Viewer, item: FoundItem, locale: Locale): string {
  switch (item.kind) {
    case "G_SCHEDULE":
      return eventEntry(baseUrl, item.group, item.entry, undefined);
    case "M_SCHEDULE":
      return personalEventEntry(baseUrl, item.entry);
    case "M_CHAT":
      return chatMessageEntry(baseUrl, viewer.id, item.message);
    case "GROUP":
      return groupEntry(baseUrl, viewer, item.group);
    case "BOARD":
      return topicEntry(baseUrl, item.group, item.topic, undefined);
    case "TASK":
      return taskEntry(baseUrl, item.group, item.task, { locale, confirmed: item.confirmed, comments: undefined });
    case "CABINET":
      return fileEntry(baseUrl, item.group, item.file, undefined);
    case "COMMENT":
      return commentEntry(baseUrl, item.detail, { withContent: false });
  }
}

function updatedOf(item: FoundItem): number {
  switch (item.kind) {
    case "G_SCHEDULE":
    case "M_SCHEDULE":
      return item.entry.event.updatedAt;
    case "M_CHAT":
      return item.message.createdAt;
    case "GROUP":
      return item.group.updatedAt;
    case "BOARD":
      return item.topic.updatedAt;
    case "TASK":
      return item.task.updatedAt;
    case "CABINET":
      return item.file.updatedAt;
    case "COMMENT":
      return item.detail.comment.createdAt;
  }
}

/** The item's own entry with `cbl:excerpt` as its last child. */
function withExcerpt(entry: string, excerpt: string): string {
  return `${entry.slice(0, -"</entry>".length)}${element("cbl:excerpt", {}, excerpt)}</entry>`;
}
