import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { Group, Membership } from "../../domain/group.js";
import type { Member, MemberStatus } from "../../domain/member.js";
import type { PageWindow } from "../../store/page-window.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** What the member list shows: the members, the total of their status, and what the caller may do. */
export interface MemberListView {
  readonly group: Group;
  readonly members: readonly Member[];
  readonly totalCount: number;
  readonly caller: Membership;
  readonly managerCount: number;
  /** How many joined members the group has (whether its last manager may leave). */
  readonly joinedCount: number;
}

/** A page of a group's members (or invitations). @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function listMembers(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; status: MemberStatus; page: PageWindow },
): Promise<MemberListView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const totalCount = await tx.memberships.countMembers(group.id, input.status);
    return {
      group,
      members: await tx.memberships.listMembers(group.id, input.status, input.page),
      totalCount,
      caller: membership,
      managerCount: await tx.memberships.countManagers(group.id),
      joinedCount: input.status === "JOIN" ? totalCount : await tx.memberships.countMembers(group.id, "JOIN"),
    };
  });
}

/** One member of the group, in the same form as the list. @throws NotFoundError MEMBER_NOT_FOUND, ForbiddenError */
export async function getMember(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; memberId: number },
): Promise<MemberListView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const member = await tx.memberships.findMember(input.memberId);
    if (!member || member.groupId !== group.id)
      throw new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
    return {
      group,
      members: [member],
      totalCount: 1,
      caller: membership,
      managerCount: await tx.memberships.countManagers(group.id),
      joinedCount: await tx.memberships.countMembers(group.id, "JOIN"),
    };
  });
}
