import type { Topic } from "../domain/topic.js";
import { formatContentId, formatGroupId } from "../domain/item-id.js";
import type { BoardView } from "../services/topic/topic.js";
import { type Viewer, feedDocument, newestOf, titleElement } from "./feed.js";
import { areaLinks } from "../domain/item-links.js";
import { topicEntry } from "./topic.js";
import { element, utcTimestamp } from "../atom/build.js";
import { changeParts, nextChangesLink } from "./changes.js";

/**
 * The board feed: a page of topics, one topic, or the result of a topic write; a list read's
 * changes in change order, and its next-changes address (docs/api.md "Delta sync").
 */
export function boardFeed(
  baseUrl: string,
  viewer: Viewer,
  view: BoardView,
  now: number,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.topics,
    (topic) => topic.id,
    (topic) => topicEntry(baseUrl, view.group, topic, view.comments?.get(topic.id)),
    (gone) => formatContentId({ kind: "BOARD", groupId: view.group.id, id: gone.itemId }),
  );
  return feedDocument(
    {
      title: view.group.name,
      id: formatGroupId(view.group.id),
      alternate: areaLinks(baseUrl, view.group.id, "BOARD").alternate,
      viewer,
      updated: newestOf(view.topics, now),
      extra: nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** The answer to a delete: a feed holding the deleted topic's id. */
export function deletedTopicFeed(baseUrl: string, viewer: Viewer, topic: Topic, now: number): string {
  const id = formatContentId({ kind: "BOARD", groupId: topic.groupId, id: topic.id });
  return feedDocument(
    {
      title: topic.title,
      id: formatGroupId(topic.groupId),
      alternate: areaLinks(baseUrl, topic.groupId, "BOARD").alternate,
      viewer,
      updated: now,
    },
    [`<entry>${element("id", {}, id)}${titleElement(topic.title)}${element("updated", {}, utcTimestamp(now))}</entry>`],
  );
}
