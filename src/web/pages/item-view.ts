// What topic, task and file pages share: their comments, likes and favorite, as templates show them.
import type { Attachment } from "../../domain/attachment.js";
import type { Membership } from "../../domain/group.js";
import { type ContentRef, formatAttachmentId, formatContentId, formatPair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { areaLinks, contentLinks } from "../../domain/item-links.js";
import type { CommentNews, CommentSection, Reactions } from "../../services/item/item-page.js";
import { queryValue } from "../../http-kit/query.js";
import type { Chrome } from "../chrome.js";
import { mentionLinker, mentionSource } from "../mention-html.js";
import type { SafeHtml } from "../layout.js";
import type { PageRequest } from "../page.js";
import type { PageWindow } from "../../store/page-window.js";
import { type RequestedPage, type Pager, PAGE_SIZE, readPageNumber, withQuery } from "../paging.js";

/** Image types a browser shows in place; anything else is only offered as a download. */
/** Types shown as a preview image beside their download link. */
export const PREVIEWABLE = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The path of an item's page (the feeds' `alternate` link without the base URL). */
export function itemPath(ref: ContentRef): string {
  return contentLinks("", ref).alternate;
}

/** The comment page an item page shows (`?cpage=`), and the window of comments its service reads for it. */
export function requestedComments(page: PageRequest): { request: RequestedPage; window: PageWindow } {
  const request = readPageNumber(page.query, "cpage");
  return { request, window: { offset: request.fetch.offset, limit: PAGE_SIZE } };
}

/** The link to the folder an item is in, on its area's list page; none for an item in no folder. */
export function itemFolderHref(chrome: Chrome, ref: ContentRef, folderId: number | null): string | undefined {
  if (folderId === null) return undefined;
  return chrome.u(withQuery(areaLinks("", ref.groupId, ref.kind).alternate, { folder: formatPair(folderId) }));
}

/** A download link of this site (signed-in people; the API's fileDownload needs a token). */
export function downloadHref(id: string, options: { version?: number; inline?: boolean } = {}): string {
  return withQuery("/download", { id, version: options.version, inline: options.inline ? "true" : undefined });
}

/** One attachment as a comment shows it. */
export interface AttachmentView {
  readonly name: string;
  readonly size: number;
  readonly href: string;
  readonly previewHref: string | undefined;
}

/** One comment as its page shows it. */
export interface CommentView {
  readonly number: number;
  readonly anchor: string;
  readonly authorName: string;
  /** The author's picture or initial. */
  readonly avatar: SafeHtml;
  readonly createdAt: number;
  /** When its author last changed its text (shown as "edited"). */
  readonly editedAt: number | undefined;
  readonly body: string;
  readonly replyTo:
    | { readonly number: number; readonly authorName: string | undefined; readonly excerpt: string | undefined }
    | undefined;
  readonly likerNames: readonly string[];
  readonly liked: boolean;
  readonly favorite: boolean;
  readonly attachments: readonly AttachmentView[];
  readonly mayDelete: boolean;
  /** Its author alone changes its text. */
  readonly mayEdit: boolean;
  /** Where this comment's like, favorite, edit and delete forms post. */
  readonly action: string;
  /** Written by someone else since the reader's last visit (marked "New"). */
  readonly isNew: boolean;
}

/** The comments part of an item page. */
export interface CommentsView {
  readonly total: number;
  readonly comments: readonly CommentView[];
  readonly pager: Pager;
  readonly itemAction: string;
  /** The comment being answered (from `?reply=N`), when it is on this item. */
  readonly replyTo: number | undefined;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  /** The members' suggestion list of the text field (`@`). */
  readonly mentionSource: string;
  /** Comments new to the reader since their last visit, over all pages ("2 new comments"). */
  readonly newCount: number;
  /** The anchor of the newest new comment on this page, the count's link. */
  readonly firstNewAnchor: string | undefined;
}

/** Builds the comments part; `userId` and `membership` decide which comments may be deleted. */
function commentsView(
  chrome: Chrome,
  ref: ContentRef,
  section: CommentSection,
  pictures: ReadonlyMap<number, string>,
  viewer: { userId: number; membership: Membership },
  request: RequestedPage & { reply: number | undefined },
  news: CommentNews | undefined,
): CommentsView {
  const since = news?.since;
  const path = itemPath(ref);
  const comments = section.comments.map((entry): CommentView => {
    const { comment } = entry;
    const replied = comment.replyTo === null ? undefined : section.repliedTo.get(comment.replyTo);
    return {
      number: comment.number,
      anchor: `comment-${comment.number}`,
      authorName: comment.authorName,
      avatar: chrome.avatar(comment.authorId, comment.authorName, pictures.get(comment.authorId)),
      createdAt: comment.createdAt,
      editedAt: comment.editedAt ?? undefined,
      body: comment.body,
      replyTo:
        comment.replyTo === null
          ? undefined
          : { number: comment.replyTo, authorName: replied?.authorName, excerpt: replied?.excerpt },
      likerNames: entry.likers.map((liker) => liker.name),
      liked: entry.likes.mine,
      favorite: entry.starred,
      attachments: entry.attachments.map((attachment) => attachmentView(ref, comment.number, attachment)),
      mayDelete: comment.authorId === viewer.userId || viewer.membership.manager,
      mayEdit: comment.authorId === viewer.userId,
      action: `${path}/comments/${comment.number}`,
      isNew: since !== undefined && comment.createdAt > since && comment.authorId !== viewer.userId,
    };
  });
  const href = (n: number) => `${chrome.u(withQuery(path, { cpage: n === 1 ? undefined : n }))}#comments`;
  return {
    total: section.total,
    comments,
    pager: {
      number: request.number,
      newerHref: request.number > 1 ? href(request.number - 1) : undefined,
      olderHref: section.olderExists ? href(request.number + 1) : undefined,
    },
    itemAction: path,
    replyTo: request.reply,
    maxFiles: LIMITS.filesPerComment,
    maxFileBytes: LIMITS.fileMaxBytes,
    maxTotalBytes: LIMITS.multipartMaxBytes,
    mentionSource: mentionSource(chrome, ref.groupId),
    newCount: news?.count ?? 0,
    firstNewAnchor: comments.find((comment) => comment.isNew)?.anchor,
  };
}

/**
 * The likes, favorite and comments of an item page as the signed-in caller sees them: `request` is
 * the comment page (`?cpage=`), and `?reply=N` names the comment being answered. `linkMentions`
 * turns the body or a comment into HTML with its mentions as links.
 */
export function itemSections(
  page: PageRequest,
  ref: ContentRef,
  view: {
    reactions: Reactions;
    comments: CommentSection;
    membership: Membership;
    mentions: ReadonlyMap<string, number>;
    pictures: ReadonlyMap<number, string>;
    /** Topics, tasks and files mark what is new to the reader; events do not. */
    news?: CommentNews;
  },
  request: RequestedPage,
): { reactions: ReactionsView; comments: CommentsView; linkMentions: (text: string) => string } {
  const reply = Number(queryValue(page.query, "reply"));
  const viewer = { userId: page.actor.user.id, membership: view.membership };
  return {
    reactions: reactionsView(ref, view.reactions),
    comments: commentsView(
      page.chrome,
      ref,
      view.comments,
      view.pictures,
      viewer,
      {
        ...request,
        reply: Number.isInteger(reply) && reply > 0 ? reply : undefined,
      },
      view.news,
    ),
    linkMentions: mentionLinker(page.chrome, ref.groupId, view.mentions),
  };
}

function attachmentView(parent: ContentRef, commentNumber: number, attachment: Attachment): AttachmentView {
  const id = formatAttachmentId(parent, commentNumber, attachment.position);
  return {
    name: attachment.fileName,
    size: attachment.size,
    href: downloadHref(id),
    previewHref: PREVIEWABLE.has(attachment.contentType) ? downloadHref(id, { inline: true }) : undefined,
  };
}

/** The like and favorite part of an item page. */
export interface ReactionsView {
  readonly action: string;
  readonly liked: boolean;
  readonly likerNames: readonly string[];
  readonly favorite: boolean;
}

/** Builds the like and favorite part of an item page. */
function reactionsView(ref: ContentRef, reactions: Reactions): ReactionsView {
  return {
    action: itemPath(ref),
    liked: reactions.liked,
    likerNames: reactions.likers.map((liker) => liker.name),
    favorite: reactions.favorite,
  };
}

/** The comment feed of an item, for autodiscovery. */
export function commentFeedHref(baseUrl: string, ref: ContentRef): string {
  return `${baseUrl}/api/comment/V2?${new URLSearchParams({ entry: formatContentId(ref) }).toString()}`;
}
