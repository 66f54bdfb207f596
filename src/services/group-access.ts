import type { Actor } from "../domain/access.js";
import { type GroupAccess, groupNotFound, requireMembership } from "../domain/group.js";
import { formatPair } from "../domain/item-id.js";
import type { Tx } from "../store/store.js";

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
