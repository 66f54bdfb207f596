import { ConflictError, ForbiddenError, ValidationError } from "./errors.js";
import type { Membership } from "./group.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars } from "./text.js";

/** A topic of a group's board. */
export interface Topic {
  readonly id: number;
  readonly groupId: number;
  readonly title: string;
  readonly body: string;
  readonly authorId: number;
  readonly authorName: string;
  readonly folderId: number | null;
  readonly folderName: string | null;
  readonly allowEdit: boolean;
  readonly fastNotify: boolean;
  readonly trashed: boolean;
  readonly publishedAt: number;
  readonly updatedAt: number;
}

/** What a client sends to create or update a topic. */
export interface TopicDraft {
  readonly title: string | undefined;
  readonly body: string | undefined;
}

/** Who holds a topic's edit lease, and until when. */
export interface EditLease {
  readonly topicId: number;
  readonly userId: number;
  readonly userName: string;
  readonly since: number;
  readonly until: number;
}

/**
 * Checks title and body against the specification's limits (in characters, not bytes).
 * @throws ValidationError TOPIC_TITLE_REQUIRED, TOPIC_TITLE_TOO_LONG, TOPIC_BODY_TOO_LONG
 */
export function checkTopicDraft(draft: TopicDraft): { title: string; body: string } {
  const title = draft.title ?? "";
  if (title.trim() === "") {
    throw new ValidationError("TOPIC_TITLE_REQUIRED", "The topic title (entry/title) is missing or empty.");
  }
  checkMaxChars(title, LIMITS.topicTitleMaxChars, "TOPIC_TITLE_TOO_LONG", "The topic title");
  // An omitted summary makes the body empty (docs/api.md "Board").
  const body = draft.body ?? "";
  checkMaxChars(body, LIMITS.topicBodyMaxChars, "TOPIC_BODY_TOO_LONG", "The topic body (entry/summary)");
  return { title, body };
}

/** Author, managers, and everyone when shared editing is on (docs/api.md "Board"). */
export function mayUpdateTopic(topic: Topic, userId: number, membership: Membership): boolean {
  return topic.authorId === userId || membership.manager || topic.allowEdit;
}

/**
 * Asserts the caller may update the topic.
 * @throws ForbiddenError TOPIC_UPDATE_FORBIDDEN
 */
export function requireMayUpdateTopic(topic: Topic, userId: number, membership: Membership): void {
  if (!mayUpdateTopic(topic, userId, membership)) {
    throw new ForbiddenError(
      "TOPIC_UPDATE_FORBIDDEN",
      "Only the topic's author and the group's managers may edit this topic (shared editing is off).",
    );
  }
}

/**
 * Asserts the caller may delete the topic: its author and the group's managers.
 * @throws ForbiddenError TOPIC_DELETE_FORBIDDEN
 */
export function requireMayDeleteTopic(topic: Topic, userId: number, membership: Membership): void {
  if (topic.authorId !== userId && !membership.manager) {
    throw new ForbiddenError(
      "TOPIC_DELETE_FORBIDDEN",
      "Only the topic's author and the group's managers may delete this topic.",
    );
  }
}

/** A lease that still runs at `now`. */
export function isLeaseLive(lease: EditLease | undefined, now: number): lease is EditLease {
  return lease !== undefined && lease.until > now;
}

/** TOPIC_BEING_EDITED, carrying who holds the lease and until when (pages word it in their language). */
export class TopicBeingEditedError extends ConflictError {
  constructor(readonly lease: EditLease) {
    super(
      "TOPIC_BEING_EDITED",
      `The topic is being edited by ${lease.userName} until ${new Date(lease.until).toISOString().slice(0, 19)}Z.`,
    );
  }
}

/**
 * Asserts nobody but the caller holds a live lease on the topic.
 * @throws TopicBeingEditedError (ConflictError TOPIC_BEING_EDITED)
 */
export function requireNotLeasedByOther(lease: EditLease | undefined, userId: number, now: number): void {
  if (isLeaseLive(lease, now) && lease.userId !== userId) throw new TopicBeingEditedError(lease);
}

/**
 * Asserts the topic is in the trash (the web deletes for good only from there).
 * @throws ConflictError TOPIC_NOT_IN_TRASH
 */
export function requireTrashed(topic: Topic): void {
  if (!topic.trashed)
    throw new ConflictError("TOPIC_NOT_IN_TRASH", "The topic is not in the trash: move it to the trash first.");
}

/**
 * Asserts the topic is not in the trash (filing or trashing it again).
 * @throws ConflictError TOPIC_IN_TRASH
 */
export function requireNotTrashed(topic: Topic): void {
  if (topic.trashed) throw new ConflictError("TOPIC_IN_TRASH", "The topic is in the trash: restore it first.");
}
