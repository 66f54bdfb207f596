import type { Actor } from "../../domain/access.js";
import { NotFoundError } from "../../domain/errors.js";
import type { Group, Membership } from "../../domain/group.js";
import type { Member, MemberStatus } from "../../domain/member.js";
import type { PageWindow } from "../../store/page-window.js";
import type { Tx } from "../../store/store.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";
import type { ChangeCursor } from "../../domain/changes.js";
import { MEMBER_KIND } from "../../store/item-change-sources-0058.js";
import { type ChangeFeed, type ChangesView, latestCursor, readChanges } from "../item/changes.js";

/** What the member list shows: the members, the total of their status, and what the caller may do. */
export interface MemberListView {
  readonly group: Group;
  readonly members: readonly Member[];
  readonly totalCount: number;
  readonly caller: Membership;
  readonly managerCount: number;
  /** How many joined members the group has (whether its last manager may leave). */
  readonly joinedCount: number;
  /** A list read's delta sync: the next cursor, and the changes of a changes-since read. */
  readonly changes?: ChangesView;
}

/**
 * A page of a group's members (or invitations), or with `changesSince` their changes after the
 * cursor (docs/api.md "Delta sync"): joined, left, invited, role and setting changes.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ValidationError, GoneError (a cursor)
 */
export async function listMembers(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; status: MemberStatus; page: PageWindow; changesSince?: ChangeCursor | undefined },
): Promise<MemberListView> {
  return ctx.store.read(async (tx) => {
    const feed = memberChanges(input.groupId, input.status);
    if (input.changesSince !== undefined) {
      const read = await readChanges(tx, actor, feed, input.changesSince, input.page.limit);
      if (read.departed) {
        // A former member's tombstones: no counts, no role of theirs.
        const caller: Membership = {
          id: 0,
          groupId: read.group.id,
          userId: actor.user.id,
          manager: false,
          notify: false,
          joinedAt: 0,
        };
        const counts = { totalCount: 0, managerCount: 0, joinedCount: 0 };
        return { group: read.group, members: [], caller, ...counts, changes: read.changes };
      }
      const { membership } = await requireGroupMember(tx, actor, read.group.id);
      const counts = await countsOf(tx, read.group, input.status, membership);
      return { ...counts, members: read.items, changes: read.changes };
    }
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const changes = await latestCursor(tx, feed.scope);
    return {
      ...(await countsOf(tx, group, input.status, membership)),
      members: await tx.memberships.listMembers(group.id, input.status, input.page),
      changes,
    };
  });
}

/** The member list as delta sync follows it: the group's memberships of the list's status. */
function memberChanges(groupId: number, status: MemberStatus): ChangeFeed<Member> {
  return {
    scope: { groupId, kind: MEMBER_KIND, parentId: 0 },
    async load(tx, ids) {
      const found = await Promise.all(ids.map((id) => tx.memberships.findMember(id)));
      return found.filter((member) => member !== undefined && member.groupId === groupId) as Member[];
    },
    idOf: (member) => member.id,
    shows: (member) => member.status === status,
  };
}

/** The counts and the caller's membership a member list writes besides its entries. */
async function countsOf(tx: Tx, group: Group, status: MemberStatus, membership: Membership) {
  const totalCount = await tx.memberships.countMembers(group.id, status);
  return {
    group,
    totalCount,
    caller: membership,
    managerCount: await tx.memberships.countManagers(group.id),
    joinedCount: status === "JOIN" ? totalCount : await tx.memberships.countMembers(group.id, "JOIN"),
  };
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
