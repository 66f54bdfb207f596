// What people may do to a group from the web interface: create and describe it, manage its
// members, leave it. Pure rules; the services run them inside their transactions.
import { ForbiddenError, ValidationError } from "./errors.js";
import type { Membership } from "./group.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars, checkNameCharacters } from "./text.js";

/**
 * A group's name and description. The name is an entry title wherever a feed shows the group
 * (`title` of the groups feed, `valueString` of `cbl:group`) and the description its summary, so
 * they take the API's limits of a title and of a text.
 * @throws ValidationError GROUP_NAME_REQUIRED, GROUP_NAME_TOO_LONG, GROUP_NAME_INVALID, GROUP_SUMMARY_TOO_LONG
 */
export function checkGroupDraft(draft: { name: string; summary: string }): { name: string; summary: string } {
  const name = draft.name.trim();
  if (name === "") throw new ValidationError("GROUP_NAME_REQUIRED", "The group's name is missing or empty.");
  checkMaxChars(name, LIMITS.groupNameMaxChars, "GROUP_NAME_TOO_LONG", "The group's name");
  checkNameCharacters(name, "GROUP_NAME_INVALID", "The group's name");
  checkMaxChars(draft.summary, LIMITS.groupSummaryMaxChars, "GROUP_SUMMARY_TOO_LONG", "The group's description");
  return { name, summary: draft.summary };
}

/**
 * Asserts the caller manages the group: renaming it, inviting, removing members and naming
 * managers are the managers' (docs/api.md "Members": `authority`).
 * @throws ForbiddenError MANAGER_REQUIRED
 */
export function requireManager(membership: Membership): void {
  if (!membership.manager) throw new ForbiddenError("MANAGER_REQUIRED", "Only the group's managers may do this.");
}

/**
 * Asserts a member may leave: the last manager may not while others remain, or the group would
 * be left without anyone able to manage it. The only member may leave (the group stays, empty,
 * for the operator).
 * @throws ValidationError LAST_MANAGER
 */
export function requireMayLeave(
  membership: Pick<Membership, "manager">,
  managerCount: number,
  memberCount: number,
): void {
  if (membership.manager && managerCount <= 1 && memberCount > 1) {
    throw new ValidationError(
      "LAST_MANAGER",
      "You are the group's last manager; make another member a manager before you leave.",
    );
  }
}

/** Whether a joined member may leave: not the last manager while other members remain. */
export function mayLeave(member: { readonly manager: boolean }, managerCount: number, memberCount: number): boolean {
  return !(member.manager && managerCount <= 1 && memberCount > 1);
}
