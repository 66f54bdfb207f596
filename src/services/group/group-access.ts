import type { Actor } from "../../domain/access.js";
import {
  type Group,
  type GroupAccess,
  groupNotFound,
  requireMembership,
  requireNotArchived,
} from "../../domain/group.js";
import { requireManager } from "../../domain/group-rules.js";
import { formatPair } from "../../domain/item-id.js";
import type { Tx } from "../../store/store.js";

/**
 * Loads a group and asserts the caller has joined it: the check before any read of group data
 * or any write. In a transaction (a write) it also asserts the group is not archived: the one
 * place an archived group's content and members are kept as they are, whatever the write. The
 * membership comes first, so a stranger learns nothing of the group's state.
 * @throws NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED, GROUP_ARCHIVED
 */
export async function requireGroupMember(tx: Tx, actor: Actor, groupId: number): Promise<GroupAccess> {
  const group = await tx.groups.findById(groupId);
  if (!group) throw groupNotFound(formatPair(groupId));
  const membership = await tx.memberships.findJoined(groupId, actor.user.id);
  requireMembership(membership);
  if (tx.writing) requireNotArchived(group);
  return { group, membership };
}

/**
 * Loads a group and asserts the caller manages it: the check before a manager's read or write.
 * @throws NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED, GROUP_ARCHIVED (a write)
 */
export async function requireGroupManager(tx: Tx, actor: Actor, groupId: number): Promise<Group> {
  const { group, membership } = await requireGroupMember(tx, actor, groupId);
  requireManager(membership);
  return group;
}
