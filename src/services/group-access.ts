import type { Actor } from "../domain/access.js";
import { NotFoundError } from "../domain/errors.js";
import { type GroupAccess, requireMembership } from "../domain/group.js";
import type { Tx } from "../store/store.js";

/**
 * Loads a group and asserts the caller has joined it: the check before any read of group data
 * or any write.
 * @throws NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED
 */
export async function requireGroupMember(tx: Tx, actor: Actor, groupId: number): Promise<GroupAccess> {
  const group = await tx.groups.findById(groupId);
  if (!group) throw new NotFoundError("GROUP_NOT_FOUND", "The group does not exist.");
  const membership = await tx.memberships.findJoined(groupId, actor.user.id);
  requireMembership(membership);
  return { group, membership };
}
