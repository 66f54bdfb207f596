import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { FolderFilter } from "../../domain/folder.js";
import type { Group } from "../../domain/group.js";
import type { ContentRef } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import {
  type EditLease,
  type Topic,
  checkTopicDraft,
  requireMayDeleteTopic,
  requireMayUpdateTopic,
  requireNotLeasedByOther,
  requireNotTrashed,
  requireTrashed,
} from "../../domain/topic.js";

import type { PageWindow } from "../../store/page-window.js";
import type { NewTopic } from "../../store/queries/topics.js";
import type { Tx } from "../../store/store.js";
import { commentsByItem } from "../comment/embedded-comments.js";
import { requireFolderOf } from "../group/folder-access.js";
import { type CommentDetail, removeBlobs, removeCommentsOf, removeItemRows } from "../comment/comment-detail.js";
import { requireGroupMember } from "../group/group-access.js";
import { notifyMentions } from "../notification/mention.js";
import type { ServiceContext } from "../context.js";
import { queueItemDeleted } from "../webhook/enqueue.js";
import { type ChangeCursor, showsInFolder } from "../../domain/changes.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";

/** What a board read returns: the group, its topics, and their comments when asked for. */
export interface BoardView {
  readonly group: Group;
  readonly topics: readonly Topic[];
  /** Comments per topic id, newest first, as the caller sees them; undefined when not asked for. */
  readonly comments: ReadonlyMap<number, readonly CommentDetail[]> | undefined;
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/**
 * A page of a group's board, or with `changesSince` its changes after the cursor (docs/api.md
 * "Delta sync"). @throws NotFoundError, ForbiddenError; ValidationError, GoneError (a cursor)
 */
export async function listTopics(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    groupId: number;
    filter: FolderFilter;
    page: PageWindow;
    embedComments: boolean;
    changesSince?: ChangeCursor | undefined;
  },
): Promise<BoardView> {
  return ctx.store.read(async (tx) => {
    const feed = topicChanges(input.groupId, input.filter);
    const embed = async (topics: readonly Topic[]) =>
      input.embedComments ? await commentsByItem(tx, actor.user.id, topics.map(refOf)) : undefined;
    if (input.changesSince !== undefined) {
      const read = await readChanges(tx, actor, feed, input.changesSince, input.page.limit);
      return { group: read.group, topics: read.items, comments: await embed(read.items), changes: read.changes };
    }
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    await feed.check?.(tx, group);
    const changes = await latestCursor(tx, feed.scope);
    const topics = await tx.topics.list(group.id, input.filter, input.page);
    return { group, topics, comments: await embed(topics), changes };
  });
}

/** The board as delta sync follows it: the group's topics, shown as the folder filter shows them. */
function topicChanges(groupId: number, filter: FolderFilter): ChangeFeed<Topic> {
  return {
    scope: { groupId, kind: "BOARD", parentId: 0 },
    async load(tx, ids) {
      const found = await Promise.all(ids.map((id) => tx.topics.findById(id)));
      return found.filter((topic) => topic !== undefined && topic.groupId === groupId) as Topic[];
    },
    idOf: (topic) => topic.id,
    shows: (topic) => showsInFolder(topic, filter),
    async check(tx, group) {
      if (filter.kind === "folder") await requireFolderOf(tx, group.id, filter.folderId, "BOARD");
    },
  };
}

/** One topic, in the same form as the list. @throws NotFoundError, ForbiddenError */
export async function getTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; embedComments: boolean },
): Promise<BoardView> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    return {
      group,
      topics: [topic],
      comments: input.embedComments ? await commentsByItem(tx, actor.user.id, [refOf(topic)]) : undefined,
    };
  });
}

/**
 * Creates a topic in a group the caller has joined, unfiled unless a board folder of the group
 * is given (the web form offers folders and shared editing; the API sends neither); the other
 * members are notified.
 * @throws ValidationError TOPIC_TITLE_REQUIRED, TOPIC_TITLE_TOO_LONG, TOPIC_BODY_TOO_LONG
 * @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function createTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: {
    groupId: number;
    title: string | undefined;
    body: string | undefined;
    folderId?: number | null;
    allowEdit?: boolean;
  },
): Promise<BoardView> {
  const draft = checkTopicDraft(input);
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    const folderId = input.folderId ?? null;
    if (folderId !== null) await requireFolderOf(tx, group.id, folderId, "BOARD");
    const at = ctx.clock.now();
    const topic = await insertTopic(tx, {
      groupId: group.id,
      ...draft,
      authorId: actor.user.id,
      folderId,
      allowEdit: input.allowEdit ?? false,
      fastNotify: false,
      trashed: false,
      at,
    });
    await tx.notifications.fanOut({ item: refOf(topic), actorId: actor.user.id, cause: { kind: "created" }, at });
    await notifyMentions(tx, { item: refOf(topic), commentNumber: null, text: topic.body, actorId: actor.user.id, at });
    return { group, topics: [topic], comments: undefined };
  });
}

/**
 * Overwrites title and body; an omitted body empties it. The holder's own update ends its lease.
 * The other members are notified (a changed body also sets the notification's summary update).
 * `refuseTrashed` as for `lockTopic`.
 * @throws ValidationError, NotFoundError TOPIC_NOT_FOUND, ForbiddenError, ConflictError TOPIC_BEING_EDITED, TOPIC_IN_TRASH
 */
export async function updateTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; title: string | undefined; body: string | undefined; refuseTrashed?: boolean },
): Promise<BoardView> {
  const draft = checkTopicDraft(input);
  return ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    requireMayUpdateTopic(topic, actor.user.id, membership);
    if (input.refuseTrashed === true) requireNotTrashed(topic);
    const now = ctx.clock.now();
    requireNotLeasedByOther(await tx.leases.find(topic.id), actor.user.id, now);
    await tx.topics.update(topic.id, { ...draft, at: now });
    await tx.leases.remove(topic.id);
    const cause = { kind: "updated", bodyChanged: draft.body !== topic.body } as const;
    await tx.notifications.fanOut({ item: refOf(topic), actorId: actor.user.id, cause, at: now });
    if (cause.bodyChanged) {
      const text = draft.body;
      await notifyMentions(tx, {
        item: refOf(topic),
        commentNumber: null,
        text,
        previousText: topic.body,
        actorId: actor.user.id,
        at: now,
      });
    }
    return { group, topics: [await requireTopic(tx, input.ref)], comments: undefined };
  });
}

/**
 * Deletes a topic with its comments, their attachments, and every like, favorite and notification of them all;
 * the attachment bytes go once the rows are gone for good. The API deletes at once; the web
 * (`fromTrash`) only what is already in the trash.
 * @throws NotFoundError TOPIC_NOT_FOUND, ForbiddenError, ConflictError TOPIC_BEING_EDITED, TOPIC_NOT_IN_TRASH
 */
export async function deleteTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; fromTrash?: boolean },
): Promise<Topic> {
  const { topic, keys } = await ctx.store.transaction(async (tx) => {
    const { membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const found = await requireTopic(tx, input.ref);
    requireMayDeleteTopic(found, actor.user.id, membership);
    if (input.fromTrash === true) requireTrashed(found);
    requireNotLeasedByOther(await tx.leases.find(found.id), actor.user.id, ctx.clock.now());
    const removedKeys = await removeCommentsOf(tx, input.ref);
    await removeItemRows(tx, "BOARD", [found.id]);
    await tx.topics.remove(found.id);
    await queueItemDeleted(tx, input.ref, actor.user.id, ctx.clock.now());
    return { topic: found, keys: removedKeys };
  });
  await removeBlobs(ctx.blobs, keys);
  return topic;
}

/** A topic under the caller's fresh edit lease: the board answer, the topic itself, and the lease. */
export interface LockedTopicView extends BoardView {
  readonly topic: Topic;
  readonly lease: EditLease;
}

/**
 * Takes or renews the edit lease (10 minutes) for a user who may update the topic, and returns the
 * topic as it is under that lease: one transaction, so nobody's write falls between the two. The
 * API's lock operation answers with it; in the web interface pressing Edit takes it (a POST, never
 * the GET of the form) and the open form renews it while the person types. The web passes
 * `refuseTrashed` (a topic in its trash is restored before it is edited); the API, whose delete
 * skips the trash, keeps editing what it can read.
 * @throws NotFoundError, ForbiddenError, ConflictError TOPIC_BEING_EDITED naming the holder, TOPIC_IN_TRASH
 */
export async function lockTopic(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef; refuseTrashed?: boolean },
): Promise<LockedTopicView> {
  return ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    const { group, membership } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    requireMayUpdateTopic(topic, actor.user.id, membership);
    if (input.refuseTrashed === true) requireNotTrashed(topic);
    const current = await tx.leases.find(topic.id);
    requireNotLeasedByOther(current, actor.user.id, now);
    const since = current && current.userId === actor.user.id && current.until > now ? current.since : now;
    const until = now + LIMITS.editLeaseMs;
    await tx.leases.put({ topicId: topic.id, userId: actor.user.id, since, until });
    const lease = { topicId: topic.id, userId: actor.user.id, userName: actor.user.name, since, until };
    return { group, topics: [topic], comments: undefined, topic, lease };
  });
}

/**
 * Releases the caller's lease (a no-op when the caller holds none).
 * @throws NotFoundError, ForbiddenError, ConflictError TOPIC_BEING_EDITED when another user holds it
 */
export async function releaseEditLease(
  ctx: ServiceContext,
  actor: Actor,
  input: { ref: ContentRef },
): Promise<BoardView> {
  return ctx.store.transaction(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.ref.groupId);
    const topic = await requireTopic(tx, input.ref);
    requireNotLeasedByOther(await tx.leases.find(topic.id), actor.user.id, ctx.clock.now());
    await tx.leases.remove(topic.id);
    return { group, topics: [topic], comments: undefined };
  });
}

/** @throws NotFoundError TOPIC_NOT_FOUND (also when the id names another group) */
export async function requireTopic(tx: Tx, ref: ContentRef): Promise<Topic> {
  const topic = ref.kind === "BOARD" ? await tx.topics.findById(ref.id) : undefined;
  if (!topic || topic.groupId !== ref.groupId) throw new NotFoundError("TOPIC_NOT_FOUND", "The topic does not exist.");
  return topic;
}

function refOf(topic: Topic): ContentRef {
  return { kind: "BOARD", groupId: topic.groupId, id: topic.id };
}

/**
 * Inserts a topic inside the caller's transaction, its draft and place checked by the caller: the
 * one insert of topics, for createTopic and the import (which keeps the original's author and times
 * and tells no one of history).
 */
export async function insertTopic(tx: Tx, topic: NewTopic): Promise<Topic> {
  return tx.topics.insert(topic);
}
