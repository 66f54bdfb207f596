import { type AuditAction, type AuditEntry, COMMAND_LINE_ACTOR, membershipTarget } from "../../domain/audit.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import { type Member, requireKeepsAManager } from "../../domain/member.js";
import type { InvitationRow } from "../../store/queries/invitations.js";
import type { Tx } from "../../store/store.js";
import { requireGroup, requireMemberByEmail, requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { announceJoined, endMembership } from "./membership-events.js";
import { insertInvitation, insertJoinedMember } from "./member-write.js";

/**
 * Adds a user to a group as a joined member; the other members are notified.
 * @throws NotFoundError GROUP_NOT_FOUND, USER_NOT_FOUND; ValidationError ALREADY_MEMBER
 */
export async function addMember(
  ctx: ServiceContext,
  input: { groupId: number; email: string; manager: boolean },
): Promise<Member> {
  return ctx.store.transaction(async (tx) => {
    await requireGroup(tx, input.groupId);
    const user = await requireUserByEmail(tx, input.email);
    if (await tx.memberships.findJoined(input.groupId, user.id)) {
      throw new ValidationError("ALREADY_MEMBER", `${input.email.slice(0, 40)} is a member of this group already.`);
    }
    const at = ctx.clock.now();
    const created = await insertJoinedMember(
      tx,
      { groupId: input.groupId, userId: user.id, manager: input.manager },
      at,
    );
    await announceJoined(tx, input.groupId, user.id, at);
    const member = await requireMember(tx, created.id);
    await recordAudit(tx, ctx.clock, operatorEntry("member.add", member, { userId: user.id, manager: input.manager }));
    return member;
  });
}

/** Invites an e-mail address to a group. @throws NotFoundError GROUP_NOT_FOUND; ValidationError INVITE_LABEL_REQUIRED */
export async function inviteMember(
  ctx: ServiceContext,
  input: { groupId: number; email: string; label: string; expiresAt: number | null },
): Promise<Member> {
  if (input.label.trim() === "")
    throw new ValidationError("INVITE_LABEL_REQUIRED", "The invitation's label is missing or empty.");
  return ctx.store.transaction(async (tx) => {
    await requireGroup(tx, input.groupId);
    const { groupId, email, label, expiresAt } = input;
    const id = await insertInvitation(tx, { groupId, email, label, expiresAt }, ctx.clock.now());
    const member = await requireMember(tx, id);
    await recordAudit(tx, ctx.clock, operatorEntry("member.invite", member, { email, expiresAt }));
    return member;
  });
}

/**
 * Every invitation of a group, for an operator: whether each has a link (only its hash is kept, so
 * the link itself cannot be shown again) and when it ends.
 * @throws NotFoundError GROUP_NOT_FOUND
 */
export async function listInvitations(ctx: ServiceContext, input: { groupId: number }): Promise<InvitationRow[]> {
  return ctx.store.read(async (tx) => {
    await requireGroup(tx, input.groupId);
    return tx.invitations.listOfGroup(input.groupId);
  });
}

/**
 * Removes a joined member (by e-mail) or an invitation (by member id); never the last manager.
 * The remaining members are notified that a member left.
 * @throws NotFoundError GROUP_NOT_FOUND, USER_NOT_FOUND, MEMBER_NOT_FOUND; ValidationError USER_NOT_MEMBER, LAST_MANAGER
 */
export async function removeMember(
  ctx: ServiceContext,
  input: { groupId: number; email?: string; memberId?: number },
): Promise<Member> {
  return ctx.store.transaction(async (tx) => {
    const member = await memberOf(tx, input);
    requireKeepsAManager(member, await tx.memberships.countManagers(input.groupId));
    if (member.status === "JOIN" && member.userId !== null)
      await endMembership(tx, { id: member.id, groupId: input.groupId, userId: member.userId }, ctx.clock.now());
    else await tx.memberships.remove(member.id);
    const details =
      member.status === "JOIN" ? { userId: member.userId, manager: member.manager } : { invitation: true };
    await recordAudit(tx, ctx.clock, operatorEntry("member.remove", member, details));
    return member;
  });
}

/** Makes a member a manager or not; the last manager stays one. @throws as {@link removeMember} */
export async function setManager(
  ctx: ServiceContext,
  input: { groupId: number; email: string; value: boolean },
): Promise<Member> {
  return ctx.store.transaction(async (tx) => {
    const member = await memberOf(tx, input);
    if (!input.value) requireKeepsAManager(member, await tx.memberships.countManagers(input.groupId));
    await tx.memberships.update(member.id, { manager: input.value, at: ctx.clock.now() });
    const details = { manager: { before: member.manager, after: input.value } };
    await recordAudit(tx, ctx.clock, operatorEntry("member.role", member, details));
    return requireMember(tx, member.id);
  });
}

/** Turns a member's notifications for the group on or off. @throws as {@link removeMember} */
export async function setNotify(
  ctx: ServiceContext,
  input: { groupId: number; email: string; value: boolean },
): Promise<Member> {
  return ctx.store.transaction(async (tx) => {
    const member = await memberOf(tx, input);
    await tx.memberships.update(member.id, { notify: input.value, at: ctx.clock.now() });
    return requireMember(tx, member.id);
  });
}

async function memberOf(
  tx: Tx,
  input: { groupId: number; email?: string | undefined; memberId?: number | undefined },
): Promise<Member> {
  await requireGroup(tx, input.groupId);
  if (input.email !== undefined)
    return requireMember(tx, (await requireMemberByEmail(tx, input.groupId, input.email)).membership.id);
  const member = await tx.memberships.findMember(input.memberId ?? 0);
  if (!member || member.groupId !== input.groupId)
    throw new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
  return member;
}

async function requireMember(tx: Tx, id: number): Promise<Member> {
  const member = await tx.memberships.findMember(id);
  if (!member) throw new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
  return member;
}

/** The row of an operator's change to a member of a group. */
export function operatorEntry(
  action: AuditAction,
  member: Member,
  details: Readonly<Record<string, unknown>>,
): AuditEntry {
  return { action, actor: COMMAND_LINE_ACTOR, target: membershipTarget(member), groupId: member.groupId, details };
}
