// The operator's invitations by mail (`kairan member invite --send`, `kairan member resend`): the
// same link and message as a manager's, without a manager's bounds (the operator is at the shell).
import { generateSecret, hashToken } from "../../auth/token.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import { INVITATION_LIFETIME_MS, normalizeEmail } from "../../domain/invitation.js";
import type { Member } from "../../domain/member.js";
import type { Tx } from "../../store/store.js";
import { requireGroup } from "../admin-lookup.js";
import type { AccountMailContext } from "../account/mail-recipient.js";
import { recordAudit } from "../audit/audit-log.js";
import { operatorEntry } from "./member-admin.js";
import { queueInvitationMail, renewAndQueueInvitation, requireMailable } from "./invitation-mail.js";
import { insertInvitation } from "./member-write.js";

/**
 * Invites an address with a link and queues its message, in one transaction. The invitation ends
 * at `expiresAt`, or after INVITATION_LIFETIME_MS when none is given (a mailed link always ends).
 * @throws NotFoundError GROUP_NOT_FOUND; ValidationError INVITE_LABEL_REQUIRED, INVALID_EMAIL, ALREADY_MEMBER, ALREADY_INVITED
 */
export async function inviteAndSendAsOperator(
  ctx: AccountMailContext,
  input: { groupId: number; email: string; label: string; expiresAt: number | null },
): Promise<Member> {
  if (input.label.trim() === "")
    throw new ValidationError("INVITE_LABEL_REQUIRED", "The invitation's label is missing or empty.");
  const email = normalizeEmail(input.email);
  requireMailable(email);
  return ctx.store.transaction(async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    const user = await tx.users.findByEmail(email);
    if (user && (await tx.memberships.findJoined(group.id, user.id)))
      throw new ValidationError("ALREADY_MEMBER", `${email.slice(0, 40)} is a member of this group already.`);
    if ((await tx.invitations.findForEmail(group.id, email)) !== undefined)
      throw new ValidationError(
        "ALREADY_INVITED",
        `${email.slice(0, 40)} is invited already; use kairan member resend.`,
      );
    const at = ctx.clock.now();
    const secret = generateSecret();
    const expiresAt = input.expiresAt ?? at + INVITATION_LIFETIME_MS;
    const invite = { groupId: group.id, email, label: input.label, expiresAt, tokenHash: hashToken(secret) };
    const memberId = await insertInvitation(tx, invite, at);
    const sending = { memberId, groupName: group.name, email, secret, expiresAt, inviterName: undefined };
    await queueInvitationMail(tx, ctx, sending, at);
    const member = await requireInvitation(tx, memberId);
    await recordAudit(tx, ctx.clock, operatorEntry("member.invite", member, { email, expiresAt }));
    return member;
  });
}

/**
 * Sends an invitation again: a new link (the old one stops working), a new end
 * (INVITATION_LIFETIME_MS from now) and a new message.
 * @throws NotFoundError GROUP_NOT_FOUND, MEMBER_NOT_FOUND; ValidationError INVALID_EMAIL
 */
export async function resendAsOperator(
  ctx: AccountMailContext,
  input: { groupId: number; memberId: number },
): Promise<Member> {
  return ctx.store.transaction(async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    const member = await requireInvitation(tx, input.memberId);
    if (member.groupId !== group.id || member.inviteEmail === null) throw memberNotFound();
    const email = member.inviteEmail;
    requireMailable(email);
    const at = ctx.clock.now();
    const { expiresAt } = await renewAndQueueInvitation(
      tx,
      ctx,
      { member, groupName: group.name, email, inviterName: undefined },
      at,
    );
    await recordAudit(tx, ctx.clock, operatorEntry("member.invite", member, { email, expiresAt, again: true }));
    return requireInvitation(tx, member.id);
  });
}

async function requireInvitation(tx: Tx, memberId: number): Promise<Member> {
  const member = await tx.memberships.findMember(memberId);
  if (member?.status !== "INVITE") throw memberNotFound();
  return member;
}

function memberNotFound(): NotFoundError {
  return new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
}
