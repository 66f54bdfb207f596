import { element, utcTimestamp } from "../atom/build.js";
import type { Comment } from "../domain/comment.js";
import { formatCommentId } from "../domain/item-id.js";
import { authorElement, categoryElements, summaryElement, webLinkElements } from "./feed.js";
import { commentLinks } from "./links.js";

/**
 * A comment entry. Embedded comments carry `content` with the same text as `summary`
 * (interface.md: `summary` is the one to use; `content` is kept for older clients).
 */
export function commentEntry(baseUrl: string, comment: Comment, options: { withContent: boolean }): string {
  const id = formatCommentId(comment.parent, comment.number);
  return (
    `<entry cbl:sequence="${comment.number}">` +
    element("id", {}, id) +
    element("title", { type: "text" }, "") +
    webLinkElements(commentLinks(baseUrl, comment.parent, comment.number)) +
    categoryElements(id) +
    authorElement(comment.authorName, comment.authorId) +
    element("updated", {}, utcTimestamp(comment.createdAt)) +
    summaryElement(comment.body) +
    (options.withContent ? element("content", { type: "text" }, comment.body) : "") +
    (comment.replyTo === null ? "" : element("cblCmnt:replyTo", {}, String(comment.replyTo))) +
    "</entry>"
  );
}
