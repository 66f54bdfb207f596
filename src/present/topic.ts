import { element, utcTimestamp } from "../atom/build.js";
import { type ContentRef, formatContentId, formatPair } from "../domain/item-id.js";
import type { Group } from "../domain/group.js";
import type { Topic } from "../domain/topic.js";
import { embeddedCommentsElement } from "./embedded-comments.js";
import type { CommentDetail } from "../services/comment/comment-detail.js";
import { authoredHead, itemEntry } from "./feed.js";
import { contentLinks } from "../domain/item-links.js";

/** `<cbl:group valueString=".." id=".."/>`: name first, then the bare `1:n` id. */
export function groupElement(group: Group): string {
  return element("cbl:group", { valueString: group.name, id: formatPair(group.id) });
}

/** A topic entry; `comments` (newest first) adds the embedded comment sub-feed. */
export function topicEntry(
  baseUrl: string,
  group: Group,
  topic: Topic,
  comments: readonly CommentDetail[] | undefined,
): string {
  const ref: ContentRef = { kind: "BOARD", groupId: topic.groupId, id: topic.id };
  const id = formatContentId(ref);
  return itemEntry(
    authoredHead(id, contentLinks(baseUrl, ref), topic, topic.body),
    groupElement(group) +
      element("cbl:published", {}, utcTimestamp(topic.publishedAt)) +
      (topic.allowEdit ? "<cblBrd:allowEdit/>" : "") +
      (topic.fastNotify ? "<cblBrd:fastNotify/>" : "") +
      (topic.folderId === null
        ? ""
        : element("cblBrd:folder", { valueString: topic.folderName ?? "", id: formatPair(topic.folderId) })) +
      (comments === undefined
        ? ""
        : embeddedCommentsElement(baseUrl, { id, title: topic.title, updatedAt: topic.updatedAt }, comments)),
  );
}
