// The one insert of joined members and the one insert of invitations; what a change tells the
// other members (membership-events.ts) stays with the callers, since a group's first manager has
// nobody to tell.
import type { Membership } from "../../domain/group.js";
import type { Tx } from "../../store/store.js";

/**
 * Inserts a joined member, notifications on, inside the caller's transaction: for a group's first
 * manager (group-manage.ts `insertGroup`) and `kairan member add` (member-admin.ts).
 */
export async function insertJoinedMember(
  tx: Tx,
  member: { groupId: number; userId: number; manager: boolean },
  at: number,
): Promise<Membership> {
  return tx.memberships.insertJoined({ ...member, notify: true, createdAt: at });
}

/**
 * Inserts an invitation inside the caller's transaction and returns its member id: the web's
 * (with the hash of its link's secret, member-manage.ts) and `kairan member invite`'s (without).
 */
export async function insertInvitation(
  tx: Tx,
  invite: {
    groupId: number;
    email: string;
    label: string;
    expiresAt: number | null;
    tokenHash?: string;
    /** The placeholder account the invitation hands over (member/placeholder-claim.ts). */
    claimUserId?: number;
  },
  at: number,
): Promise<number> {
  return tx.memberships.insertInvite({ ...invite, createdAt: at });
}
