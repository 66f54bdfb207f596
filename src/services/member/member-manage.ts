// What a group's managers do to its members in the web interface: invite an e-mail address (a
// message with a link, which a person without an account makes one through), send an invitation
// again, remove a member or withdraw an invitation, make a member a manager or not. Every function checks that the caller
// manages the group before it reads anything else of it.
import type { Actor } from "../../domain/access.js";
import { type AuditAction, type AuditEntry, actorOf, membershipTarget } from "../../domain/audit.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import { requireMayLeave } from "../../domain/group-rules.js";
import { INVITATION_LIFETIME_MS, normalizeEmail } from "../../domain/invitation.js";
import { type Member, requireKeepsAManager } from "../../domain/member.js";
import type { Tx } from "../../store/store.js";
import { insertInvitation } from "./member-write.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { AccountMailContext } from "../account/mail-recipient.js";
import { requireGroupManager } from "../group/group-access.js";
import {
  countManagerMessage,
  queueInvitationMail,
  renewAndQueueInvitation,
  requireMailable,
  requireResendInterval,
  requireRoomForInvitation,
} from "./invitation-mail.js";
import { endMembership } from "./membership-events.js";

/** A new or renewed invitation: the link's secret exists only in this answer. */
export interface IssuedInvitation {
  readonly group: Group;
  readonly memberId: number;
  readonly email: string;
  readonly expiresAt: number;
  /** The secret of the link (`/join/1:<memberId>/<secret>`); only its hash is stored. */
  readonly secret: string;
  /** Whether an account has the address already (then the invitation waits on its home page too). */
  readonly accountExists: boolean;
}

/**
 * Invites an e-mail address to the group for INVITATION_LIFETIME_MS and queues its message (the
 * join link) in the same transaction. Bounded: invitations waiting per group, messages per manager
 * per hour.
 * @throws ValidationError INVALID_EMAIL, ALREADY_MEMBER, ALREADY_INVITED, TOO_MANY_INVITATIONS;
 *   TooManyRequestsError INVITATIONS_THROTTLED; ForbiddenError MANAGER_REQUIRED (and as requireGroupMember)
 */
export async function inviteByEmail(
  ctx: AccountMailContext,
  actor: Actor,
  input: { groupId: number; email: string },
): Promise<IssuedInvitation> {
  const tried = attempt("member.invite", actor, input.groupId, { email: input.email.slice(0, 100) });
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const email = normalizeEmail(input.email);
      requireMailable(email);
      const user = await tx.users.findByEmail(email);
      if (user && (await tx.memberships.findJoined(group.id, user.id)))
        throw new ValidationError("ALREADY_MEMBER", `${email.slice(0, 40)} is a member of this group already.`);
      if ((await tx.invitations.findForEmail(group.id, email)) !== undefined)
        throw new ValidationError(
          "ALREADY_INVITED",
          `${email.slice(0, 40)} is invited already; send that invitation again to get a new link.`,
        );
      await requireRoomForInvitation(tx, group.id);
      const at = ctx.clock.now();
      await countManagerMessage(tx, actor.user.id, at);
      const secret = generateSecret();
      const expiresAt = at + INVITATION_LIFETIME_MS;
      const invite = { groupId: group.id, email, label: email, expiresAt, tokenHash: hashToken(secret) };
      const memberId = await insertInvitation(tx, invite, at);
      const sending = { memberId, groupName: group.name, email, secret, expiresAt, inviterName: actor.user.name };
      await queueInvitationMail(tx, ctx, sending, at);
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: membershipTarget({ id: memberId, name: email }),
        details: { email, expiresAt },
      });
      return { group, memberId, email, expiresAt, secret, accountExists: user !== undefined };
    }),
  );
}

/**
 * Sends an invitation again: a new message with a new link (only the link's hash is kept, so the
 * old one cannot be sent again; it stops working) and a new end. At most one message per
 * invitation every ACCOUNT_MAIL_LIMITS.resendIntervalMs, and counted in the manager's hourly bound.
 * @throws NotFoundError MEMBER_NOT_FOUND; TooManyRequestsError INVITATION_SENT_RECENTLY, INVITATIONS_THROTTLED;
 *   ForbiddenError MANAGER_REQUIRED (and as requireGroupMember)
 */
export async function renewInvitation(
  ctx: AccountMailContext,
  actor: Actor,
  input: { groupId: number; memberId: number },
): Promise<IssuedInvitation> {
  const tried = attempt("member.invite", actor, input.groupId, { memberId: input.memberId, again: true });
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const member = await memberOfGroup(tx, group.id, input.memberId);
      if (member.status !== "INVITE" || member.inviteEmail === null) throw memberNotFound();
      const email = member.inviteEmail;
      requireMailable(email);
      const at = ctx.clock.now();
      requireResendInterval(member.inviteSentAt, at);
      await countManagerMessage(tx, actor.user.id, at);
      const { secret, expiresAt } = await renewAndQueueInvitation(
        tx,
        ctx,
        { member, groupName: group.name, email, inviterName: actor.user.name },
        at,
      );
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: membershipTarget(member),
        details: { email, expiresAt, again: true },
      });
      const accountExists = (await tx.users.findByEmail(email)) !== undefined;
      return { group, memberId: member.id, email, expiresAt, secret, accountExists };
    }),
  );
}

/**
 * Removes a joined member or withdraws an invitation. A manager removing themselves leaves, under
 * the rule of leaving; another member who is the last manager cannot be (the caller manages too).
 * @throws NotFoundError MEMBER_NOT_FOUND; ValidationError LAST_MANAGER; ForbiddenError MANAGER_REQUIRED (and as requireGroupMember)
 */
export async function removeGroupMember(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; memberId: number },
): Promise<Member> {
  const tried = attempt("member.remove", actor, input.groupId, { memberId: input.memberId });
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const member = await memberOfGroup(tx, group.id, input.memberId);
      const removed = { ...tried, target: membershipTarget(member) };
      if (member.status === "INVITE" || member.userId === null) {
        await tx.memberships.remove(member.id);
        await recordAudit(tx, ctx.clock, { ...removed, details: { invitation: true } });
        return member;
      }
      const managers = await tx.memberships.countManagers(group.id);
      if (member.userId === actor.user.id)
        requireMayLeave(member, managers, await tx.memberships.countMembers(group.id, "JOIN"));
      else requireKeepsAManager(member, managers);
      await endMembership(tx, { id: member.id, groupId: group.id, userId: member.userId }, ctx.clock.now());
      await recordAudit(tx, ctx.clock, { ...removed, details: { userId: member.userId, manager: member.manager } });
      return member;
    }),
  );
}

/**
 * Makes a joined member a manager, or not; the last manager stays one.
 * @throws NotFoundError MEMBER_NOT_FOUND; ValidationError LAST_MANAGER; ForbiddenError MANAGER_REQUIRED (and as requireGroupMember)
 */
export async function setMemberManager(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; memberId: number; manager: boolean },
): Promise<Member> {
  const tried = attempt("member.role", actor, input.groupId, { memberId: input.memberId, manager: input.manager });
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const member = await memberOfGroup(tx, group.id, input.memberId);
      if (member.status !== "JOIN") throw memberNotFound();
      if (!input.manager) requireKeepsAManager(member, await tx.memberships.countManagers(group.id));
      await tx.memberships.update(member.id, { manager: input.manager, at: ctx.clock.now() });
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: membershipTarget(member),
        details: { manager: { before: member.manager, after: input.manager } },
      });
      return { ...member, manager: input.manager };
    }),
  );
}

/** The row a manager's action on a member leaves: done with its target, or refused as tried. */
function attempt(
  action: AuditAction,
  actor: Actor,
  groupId: number,
  details: Readonly<Record<string, unknown>>,
): AuditEntry {
  return { action, actor: actorOf(actor), groupId, details };
}

async function memberOfGroup(tx: Tx, groupId: number, memberId: number): Promise<Member> {
  const member = await tx.memberships.findMember(memberId);
  if (!member || member.groupId !== groupId) throw memberNotFound();
  return member;
}

function memberNotFound(): NotFoundError {
  return new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
}
