import { ForbiddenError, NotFoundError } from "./errors.js";

/** A group: the unit of membership, with a board, tasks, files and members. */
export interface Group {
  readonly id: number;
  readonly name: string;
  readonly summary: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When an administrator archived it (read-only since); null while it is in use. */
  readonly archivedAt: number | null;
  /** Members, not only managers, make, rename, order and remove the group's folders. */
  readonly membersManageFolders: boolean;
}

/** A user's joined membership in a group. */
export interface Membership {
  readonly id: number;
  readonly groupId: number;
  readonly userId: number;
  readonly manager: boolean;
  readonly notify: boolean;
  readonly joinedAt: number;
}

/** A group with the caller's membership in it (what authorization needs). */
export interface GroupAccess {
  readonly group: Group;
  readonly membership: Membership;
}

/** A group id that names no group (the caller sent the id; saying it back reveals nothing). */
export function groupNotFound(groupId: string): NotFoundError {
  return new NotFoundError("GROUP_NOT_FOUND", `There is no group ${groupId}.`);
}

/**
 * Asserts a membership exists.
 * @throws ForbiddenError GROUP_NOT_JOINED
 */
export function requireMembership(membership: Membership | undefined): asserts membership is Membership {
  // The message names nothing of the group: a non-member learns no title or id from it.
  if (!membership) throw new ForbiddenError("GROUP_NOT_JOINED", "You are not a member of this group.");
}

/**
 * Asserts a group takes writes: an archived one is read-only (its content and its members),
 * until an administrator restores it.
 * @throws ForbiddenError GROUP_ARCHIVED
 */
export function requireNotArchived(group: Pick<Group, "archivedAt">): void {
  if (group.archivedAt !== null)
    throw new ForbiddenError("GROUP_ARCHIVED", "This group is archived: it can be read, not changed.");
}
