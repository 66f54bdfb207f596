import { ValidationError } from "./errors.js";
import { mayLeave } from "./group-rules.js";

/** Member statuses of the member list (docs/api.md "Members": JOIN and INVITE). */
export type MemberStatus = "JOIN" | "INVITE";

/** A joined member or an invitation of a group, as the member list shows it. */
export interface Member {
  /** The member id (`cblGrp:groupwareMemberId`), also the invitation's id. */
  readonly id: number;
  readonly groupId: number;
  readonly status: MemberStatus;
  /** The user of a joined member; null for invitations. */
  readonly userId: number | null;
  /** The user's name, or the invitation's label. */
  readonly name: string;
  readonly familyKana: string;
  readonly givenKana: string;
  readonly manager: boolean;
  readonly notify: boolean;
  readonly inviteEmail: string | null;
  readonly inviteExpiresAt: number | null;
  /** When an invitation's message was last sent; null when none was. */
  readonly inviteSentAt: number | null;
  /**
   * A joined member's account is an imported placeholder nobody has claimed yet: its address (the
   * original member list's, or a made-up `@placeholder.invalid` one); null for any other member.
   */
  readonly placeholderEmail: string | null;
  /** The placeholder account an invitation hands over; null for an ordinary invitation and members. */
  readonly claimUserId: number | null;
  readonly updatedAt: number;
}

/** One action on a member: whether it applies to that member, and whether the caller may do it. */
export interface MemberAction {
  readonly applies: boolean;
  readonly authority: boolean;
}

/** What the member list says can be done with a member (docs/api.md "Members"). */
export interface MemberAbilities {
  /** Sending the invitation again: applies to invitations. */
  readonly invitable: MemberAction;
  /** Removing from the group (or cancelling an invitation): applies to everyone but oneself. */
  readonly deletable: MemberAction;
  /** Leaving by oneself: every joined member but the group's last manager while others remain. */
  readonly leavable: boolean;
}

/** The abilities of `member` as seen by the caller; only managers may invite and delete. */
export function memberAbilities(
  member: Member,
  caller: { userId: number; manager: boolean },
  managerCount: number,
  joinedCount: number,
): MemberAbilities {
  const joined = member.status === "JOIN";
  const self = joined && member.userId === caller.userId;
  return {
    invitable: { applies: !joined, authority: caller.manager },
    deletable: { applies: !self, authority: caller.manager },
    leavable: joined && mayLeave(member, managerCount, joinedCount),
  };
}

/** True for the caller's own entry, which carries no link (docs/api.md "Members": clients find themselves so). */
export function isCallerEntry(member: Member, callerUserId: number): boolean {
  return member.status === "JOIN" && member.userId === callerUserId;
}

/**
 * Asserts a change leaves the group with a manager: the last manager can be neither removed nor demoted.
 * @throws ValidationError LAST_MANAGER
 */
export function requireKeepsAManager(member: Pick<Member, "manager">, managerCount: number): void {
  if (member.manager && managerCount <= 1) {
    throw new ValidationError("LAST_MANAGER", "This is the group's last manager; make another member a manager first.");
  }
}
