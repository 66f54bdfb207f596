import { element, utcTimestamp } from "../atom/build.js";
import type { CommentDetail } from "../services/comment/comment-detail.js";
import { commentEntry } from "./comment.js";
import { titleElement } from "./feed.js";

/**
 * `cbl:comments/cbl:feedLink` holding a sub-feed of every comment of an item (newest first);
 * it has no paging. Topics and tasks embed it the same way.
 */
export function embeddedCommentsElement(
  baseUrl: string,
  item: { readonly id: string; readonly title: string; readonly updatedAt: number },
  comments: readonly CommentDetail[],
): string {
  const href = `${baseUrl}/api/comment/V2?entry=${encodeURIComponent(item.id)}`;
  return (
    `<cbl:comments><cbl:feedLink href="${href}"><feed>` +
    titleElement(item.title) +
    element("id", {}, item.id) +
    element("updated", {}, utcTimestamp(comments[0]?.comment.createdAt ?? item.updatedAt)) +
    comments.map((detail) => commentEntry(baseUrl, detail, { withContent: true })).join("") +
    "</feed></cbl:feedLink></cbl:comments>"
  );
}
