// What the web interface's item pages show in one read: the topic, task or file; its likes (with
// who liked), the viewer's favorite; a page of its comments with their likers and the comments
// they reply to. The API's services answer one feed each; a page needs all of this at once.
// Opening one counts as the reader's visit (services/unread/visits.ts: the lists' "new").
import type { Actor } from "../../domain/access.js";
import type { Comment } from "../../domain/comment.js";
import { type CabinetFile, type FileVersion, mayDeleteFile } from "../../domain/file.js";
import type { Folder } from "../../domain/folder.js";
import type { GroupAccess } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import type { ItemKey, Liker } from "../../domain/reaction.js";
import { type Task, mayDeleteTask } from "../../domain/task.js";
import { type EditLease, type Topic, isLeaseLive, mayUpdateTopic } from "../../domain/topic.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { type CommentDetail, detailComments } from "../comment/comment-detail.js";
import { requireFile } from "../file/file.js";
import { requireGroupMember } from "../group/group-access.js";
import { mentionTargets } from "../notification/mention.js";
import { requireTask } from "../task/task.js";
import { requireTopic } from "../topic/topic.js";
import type { ServiceContext } from "../context.js";
import { recordVisit } from "../unread/visits.js";
import { type SeenableItem, seenSince } from "../../domain/unread.js";

/** Likes of an item with everyone who gave one, and the viewer's favorite. */
export interface Reactions {
  readonly likers: readonly Liker[];
  readonly liked: boolean;
  readonly favorite: boolean;
}

/** A comment as its page shows it: likes with names, the viewer's favorite, attachments. */
export interface CommentEntry extends CommentDetail {
  readonly likers: readonly Liker[];
}

/** The start of a comment another one replies to. */
export interface RepliedComment {
  readonly number: number;
  readonly authorName: string;
  readonly excerpt: string;
}

/** A page of an item's comments, newest first. */
export interface CommentSection {
  readonly comments: readonly CommentEntry[];
  readonly total: number;
  readonly olderExists: boolean;
  readonly newerExists: boolean;
  /** The comments replied to on this page, by number (absent: deleted since). */
  readonly repliedTo: ReadonlyMap<number, RepliedComment>;
}

/** Everything an item page shows around the item itself. */
export interface ItemPageView extends GroupAccess {
  readonly reactions: Reactions;
  readonly comments: CommentSection;
  /** The member each handle of the body and the comments shown names (services/notification/mention.ts). */
  readonly mentions: ReadonlyMap<string, number>;
  /** The picture version of each author on the page who has a picture and is still a member. */
  readonly pictures: ReadonlyMap<number, string>;
}

/**
 * What is new to the reader among an item's comments since their last visit (or "mark all read"),
 * as the lists count it: `since` is undefined when they never saw the item (nothing is marked).
 */
export interface CommentNews {
  readonly since: number | undefined;
  /** Comments others wrote after `since`, over all pages. */
  readonly count: number;
}

/** What a topic's page shows. */
export interface TopicPageView extends ItemPageView {
  readonly news: CommentNews;
  readonly topic: Topic;
  /** A live lease held by someone else (the page says who is editing). */
  readonly editedBy: EditLease | undefined;
  readonly mayEdit: boolean;
  readonly mayDelete: boolean;
  /** The board's folders, to move the topic to one. */
  readonly folders: readonly Folder[];
}

/** What a task's page shows. */
export interface TaskPageView extends ItemPageView {
  readonly task: Task;
  readonly news: CommentNews;
  /** The author and managers move it to the trash and delete it. */
  readonly mayDelete: boolean;
}

/** What a shared file's page shows, with the file's newest versions. */
export interface FilePageView extends ItemPageView {
  readonly file: CabinetFile;
  readonly news: CommentNews;
  readonly history: readonly FileVersion[];
  /** The group's shared-file folders (where the file can be moved). */
  readonly folders: readonly Folder[];
  /** Whether the viewer may delete the file for good (its author and the group's managers). */
  readonly mayDelete: boolean;
}

/** Which item, and which page of its comments. */
export interface ItemPageInput {
  readonly ref: ContentRef;
  readonly page: PageWindow;
}

/** How many characters of a replied-to comment a reply quotes. */
const EXCERPT_CHARS = 80;

/** A topic with its comments, likes and lease. @throws NotFoundError GROUP_NOT_FOUND, TOPIC_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readTopicPage(ctx: ServiceContext, actor: Actor, input: ItemPageInput): Promise<TopicPageView> {
  const view = await ctx.store.read(async (tx) => {
    const access = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    const lease = await tx.leases.find(topic.id);
    const editedBy = isLeaseLive(lease, ctx.clock.now()) && lease.userId !== actor.user.id ? lease : undefined;
    return {
      ...(await aroundItem(tx, actor, access, input, topic.body, [topic.authorId])),
      topic,
      editedBy,
      mayEdit: mayUpdateTopic(topic, actor.user.id, access.membership),
      mayDelete: topic.authorId === actor.user.id || access.membership.manager,
      news: await commentNews(tx, actor, input.ref, { ...topic, createdAt: topic.publishedAt }),
      folders: await tx.folders.list(topic.groupId, "BOARD", { offset: 0, limit: LIMITS.pageSizeMax }),
    };
  });
  await recordVisit(ctx, actor, input.ref);
  return view;
}

/** A task with its comments and likes. @throws NotFoundError TASK_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readTaskPage(ctx: ServiceContext, actor: Actor, input: ItemPageInput): Promise<TaskPageView> {
  const view = await ctx.store.read(async (tx) => {
    const access = await requireGroupMember(tx, actor, input.ref.groupId);
    const task = await requireTask(tx, input.ref);
    const mayDelete = mayDeleteTask(task, actor.user.id, access.membership);
    const news = await commentNews(tx, actor, input.ref, task);
    return { ...(await aroundItem(tx, actor, access, input, task.body, [])), task, mayDelete, news };
  });
  await recordVisit(ctx, actor, input.ref);
  return view;
}

/** A shared file with its history, comments and likes. @throws NotFoundError FILE_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readFilePage(ctx: ServiceContext, actor: Actor, input: ItemPageInput): Promise<FilePageView> {
  const view = await ctx.store.read(async (tx) => {
    const access = await requireGroupMember(tx, actor, input.ref.groupId);
    const file = await requireFile(tx, input.ref);
    const history = await tx.files.listHistories([file], LIMITS.historyEntries);
    const folders = await tx.folders.list(access.group.id, "CABINET", { offset: 0, limit: LIMITS.pageSizeMax });
    return {
      ...(await aroundItem(tx, actor, access, input, "", [])),
      file,
      history,
      folders,
      mayDelete: mayDeleteFile(file, actor.user.id, access.membership),
      news: await commentNews(tx, actor, input.ref, file),
    };
  });
  await recordVisit(ctx, actor, input.ref);
  return view;
}

/**
 * The group, likes and comments of an item the caller may read (its existence already checked),
 * and the pictures of the comments' authors and of `authorIds`.
 */
export async function aroundItem(
  tx: Tx,
  actor: Actor,
  access: GroupAccess,
  input: ItemPageInput,
  body: string,
  authorIds: readonly number[],
): Promise<ItemPageView> {
  const comments = await commentSection(tx, actor, input.ref, input.page);
  const texts = [body, ...comments.comments.map((entry) => entry.comment.body)];
  const authors = [...authorIds, ...comments.comments.map((entry) => entry.comment.authorId)];
  return {
    group: access.group,
    membership: access.membership,
    reactions: await reactionsOf(tx, actor, { kind: input.ref.kind, id: input.ref.id }),
    comments,
    mentions: await mentionTargets(tx, access.group.id, texts),
    pictures: await tx.userPictures.etagsInGroup(access.group.id, authors),
  };
}

/** The reader's news of the item's comments, read before this visit is recorded (two small queries). */
async function commentNews(tx: Tx, actor: Actor, ref: ContentRef, item: SeenableItem): Promise<CommentNews> {
  const userId = actor.user.id;
  const seen = await tx.itemVisits.seen(userId, ref.groupId, ref.kind, [ref.id]);
  const since = seenSince(item, userId, seen.visits.get(ref.id), seen.groupReadAt);
  if (since === undefined) return { since, count: 0 };
  const counts = await tx.itemVisits.commentsAfter(userId, ref.kind, new Map([[ref.id, since]]));
  return { since, count: counts.get(ref.id) ?? 0 };
}

async function reactionsOf(tx: Tx, actor: Actor, key: ItemKey): Promise<Reactions> {
  const likers = await tx.likes.likers(key);
  return {
    likers,
    liked: likers.some((liker) => liker.userId === actor.user.id),
    favorite: (await tx.favorites.find(actor.user.id, key)) !== undefined,
  };
}

async function commentSection(tx: Tx, actor: Actor, parent: ContentRef, page: PageWindow): Promise<CommentSection> {
  const rows = await tx.comments.page(parent, {}, page);
  const total = await tx.comments.count(parent, {});
  const details = await detailComments(tx, actor.user.id, rows);
  const likers = await tx.likes.likersOf(
    "COMMENT",
    rows.map((row) => row.id),
  );
  return {
    comments: details.map((detail) => ({ ...detail, likers: likers.get(detail.comment.id) ?? [] })),
    total,
    olderExists: page.offset + rows.length < total,
    newerExists: page.offset > 0 && total > 0,
    repliedTo: await repliedComments(tx, parent, rows),
  };
}

/** The comments that this page's replies answer, from the page itself or the store. */
async function repliedComments(
  tx: Tx,
  parent: ContentRef,
  rows: readonly Comment[],
): Promise<Map<number, RepliedComment>> {
  const onPage = new Map(rows.map((row) => [row.number, row]));
  const out = new Map<number, RepliedComment>();
  for (const row of rows) {
    if (row.replyTo === null || out.has(row.replyTo)) continue;
    const target = onPage.get(row.replyTo) ?? (await tx.comments.find(parent, row.replyTo));
    if (target)
      out.set(target.number, { number: target.number, authorName: target.authorName, excerpt: excerpt(target.body) });
  }
  return out;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join("")}…` : flat;
}
