import type { Actor } from "../../domain/access.js";
import { type Group, type GroupAccess, groupNotFound, requireMembership } from "../../domain/group.js";
import { requireManager } from "../../domain/group-rules.js";
import { formatPair } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";

/**
 * Loads a group and asserts the caller has joined it: the check before any read of group data
 * or any write.
 * @throws NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED
 */
export async function requireGroupMember(tx: Tx, actor: Actor, groupId: number): Promise<GroupAccess> {
  const group = await tx.groups.findById(groupId);
  if (!group) throw groupNotFound(formatPair(groupId));
  const membership = await tx.memberships.findJoined(groupId, actor.user.id);
  requireMembership(membership);
  return { group, membership };
}

/**
 * Loads a group and asserts the caller manages it: the check before a manager's read or write.
 * @throws NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function requireGroupManager(tx: Tx, actor: Actor, groupId: number): Promise<Group> {
  const { group, membership } = await requireGroupMember(tx, actor, groupId);
  requireManager(membership);
  return group;
}
