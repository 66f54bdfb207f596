import { element, utcTimestamp } from "../atom/build.js";
import type { Attachment } from "../domain/attachment.js";
import type { Comment } from "../domain/comment.js";
import { formatAttachmentId, formatCommentId, formatContentId } from "../domain/item-id.js";
import { NO_LIKES } from "../domain/reaction.js";
import type { CommentDetail } from "../services/comment/comment-detail.js";
import type { CommentView, CommentsView } from "../services/comment/comment.js";
import {
  type Viewer,
  authorElement,
  categoryElements,
  feedDocument,
  summaryElement,
  webLinkElements,
  titleElement,
} from "./feed.js";
import { areaLinks, commentLinks, contentLinks } from "../domain/item-links.js";
import { changeParts, nextChangesLink } from "./changes.js";

/**
 * A comment entry, the same in the comment feed and embedded in a topic. Embedded comments also
 * carry `content` with the same text as `summary` (docs/api.md "Board": `summary` is the one to use;
 * `content` is kept for older clients).
 */
export function commentEntry(baseUrl: string, detail: CommentDetail, options: { withContent: boolean }): string {
  const { comment } = detail;
  const id = formatCommentId(comment.parent, comment.number);
  return (
    `<entry cbl:sequence="${comment.number}">` +
    element("id", {}, id) +
    titleElement("") +
    webLinkElements(commentLinks(baseUrl, comment.parent, comment.number)) +
    categoryElements(id) +
    authorElement(comment.authorName, comment.authorId) +
    // An edit is the comment's last change (docs/api.md "Comments"); when it was first written
    // follows as `published`, after everything clients read today.
    element("updated", {}, utcTimestamp(comment.editedAt ?? comment.createdAt)) +
    summaryElement(comment.body) +
    (options.withContent ? element("content", { type: "text" }, comment.body) : "") +
    (comment.replyTo === null ? "" : element("cblCmnt:replyTo", {}, String(comment.replyTo))) +
    element("cblGood:set", {}, String(detail.likes.mine)) +
    element("cblGood:count", {}, String(detail.likes.count)) +
    element("cblStar:set", {}, String(detail.starred)) +
    detail.attachments.map((attachment) => attachmentElement(comment, attachment)).join("") +
    (comment.editedAt === null ? "" : element("published", {}, utcTimestamp(comment.createdAt))) +
    "</entry>"
  );
}

/**
 * `<cbl:attachment fileName=".." id=".." size="bytes" type="MIME" entryId=".." number="n"/>`:
 * export scripts read exactly `entryId` (what `/api/fileDownload/V2?id=` takes) and `number` (the
 * attachment's number on its comment), so both follow the element's own attributes.
 */
export function attachmentElement(comment: Pick<Comment, "parent" | "number">, attachment: Attachment): string {
  const id = formatAttachmentId(comment.parent, comment.number, attachment.position);
  return element("cbl:attachment", {
    fileName: attachment.fileName,
    id,
    size: attachment.size,
    type: attachment.contentType,
    entryId: id,
    number: attachment.position,
  });
}

/** `GET /api/comment/V2`: a page of comments with older/newer flags after `updated`. */
export function commentsFeed(
  baseUrl: string,
  viewer: Viewer,
  view: CommentsView,
  nextChanges?: string | undefined,
): string {
  const { parent } = view;
  const { tombstones, entries } = changeParts(
    view.changes,
    view.comments,
    (detail) => detail.comment.id,
    (detail) => commentEntry(baseUrl, detail, { withContent: false }),
    (gone) => formatCommentId(parent.ref, gone.refNumber),
  );
  const extra =
    element("cblCmnt:olderCommentExists", {}, String(view.olderExists)) +
    element("cblCmnt:newerCommentExists", {}, String(view.newerExists)) +
    nextChangesLink(nextChanges) +
    tombstones;
  return feedDocument(
    {
      title: parent.title,
      id: formatContentId(parent.ref),
      alternate: contentLinks(baseUrl, parent.ref).alternate,
      viewer,
      updated: view.comments[0]?.comment.createdAt ?? parent.updatedAt,
      extra,
    },
    entries,
  );
}

/** The answer to adding or deleting a comment: a feed of that one comment. */
export function commentWriteFeed(baseUrl: string, viewer: Viewer, view: CommentView): string {
  const parentId = formatContentId(view.comment.parent);
  const detail: CommentDetail = {
    comment: view.comment,
    likes: NO_LIKES,
    starred: false,
    attachments: view.attachments,
  };
  return feedDocument(
    {
      title: view.group.name,
      id: parentId,
      alternate: areaLinks(baseUrl, view.group.id, view.comment.parent.kind).alternate,
      viewer,
      updated: view.comment.createdAt,
    },
    [commentEntry(baseUrl, detail, { withContent: false })],
  );
}
