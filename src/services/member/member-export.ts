// A group's member list as a download: every joined member, in the order they joined.
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { JoinedMemberRow } from "../../store/queries/groups.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** A joined member of the download; `email` is null where the viewer is not shown it. */
export interface ExportedMember extends Omit<JoinedMemberRow, "email" | "disabled"> {
  readonly email: string | null;
}

/** What the member list download holds. */
export interface MemberExport {
  readonly group: Group;
  readonly members: readonly ExportedMember[];
}

/**
 * The group's joined members. Their addresses are those the address book shows a fellow member:
 * none of a disabled account (an imported placeholder among them).
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function readMemberExport(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number },
): Promise<MemberExport> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    const rows = await tx.memberships.listJoinedForExport(group.id);
    return {
      group,
      members: rows.map(({ disabled, email, ...row }) => ({ ...row, email: disabled ? null : email })),
    };
  });
}
