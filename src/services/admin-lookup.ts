import { NotFoundError, ValidationError } from "../domain/errors.js";
import type { Group, Membership } from "../domain/group.js";
import type { User } from "../domain/user.js";
import type { Tx } from "../store/store.js";

/** @throws NotFoundError GROUP_NOT_FOUND */
export async function requireGroup(tx: Tx, groupId: number): Promise<Group> {
  const group = await tx.groups.findById(groupId);
  if (!group) throw new NotFoundError("GROUP_NOT_FOUND", "The group does not exist.");
  return group;
}

/** @throws NotFoundError USER_NOT_FOUND */
export async function requireUserByEmail(tx: Tx, email: string): Promise<User> {
  const user = await tx.users.findByEmail(email);
  if (!user) throw new NotFoundError("USER_NOT_FOUND", `No user has the e-mail address ${email.slice(0, 40)}.`);
  return user;
}

/**
 * The user with this e-mail address, who must have joined the group (authors and assignees).
 * @throws NotFoundError USER_NOT_FOUND; ValidationError USER_NOT_MEMBER
 */
export async function requireMemberByEmail(
  tx: Tx,
  groupId: number,
  email: string,
): Promise<{ user: User; membership: Membership }> {
  const user = await requireUserByEmail(tx, email);
  const membership = await tx.memberships.findJoined(groupId, user.id);
  if (!membership) throw new ValidationError("USER_NOT_MEMBER", `${email.slice(0, 40)} is not a member of this group.`);
  return { user, membership };
}
