// The invitation's message: queued in the transaction that makes (or renews) the invitation, in
// the invited person's language, with the join link; and the bounds on how many a manager sends.
import { generateSecret, hashToken } from "../../auth/token.js";
import { ACCOUNT_MAIL_LIMITS } from "../../domain/account-link.js";
import { TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { INVITATION_LIFETIME_MS } from "../../domain/invitation.js";
import { formatPair } from "../../domain/item-id.js";
import type { Member } from "../../domain/member.js";
import { invitationMail } from "../../mail/account/invitation.js";
import { isPlainAddress } from "../../mail/message.js";
import type { Tx } from "../../store/store.js";
import { type AccountMailContext, recipientLocale } from "../account/mail-recipient.js";
import { queueMail } from "../mail/outbox.js";

/** An invitation whose message is to go: its link's secret exists only here. */
export interface InvitationToSend {
  readonly memberId: number;
  readonly groupName: string;
  readonly email: string;
  readonly secret: string;
  readonly expiresAt: number;
  /** The manager who invites; undefined for an operator. */
  readonly inviterName: string | undefined;
  /** The imported placeholder's name, when the invitation hands one over (member/placeholder-claim.ts). */
  readonly claimName?: string;
}

/** The join link of an invitation: `{base}/join/1:m/SECRET`. */
export function joinLink(ctx: AccountMailContext, memberId: number, secret: string): string {
  return `${ctx.baseUrl()}/join/${formatPair(memberId)}/${secret}`;
}

/**
 * Asserts mail can go to the address as it is (a plain address: no display name, no characters a
 * header could not carry).
 * @throws ValidationError INVALID_EMAIL
 */
export function requireMailable(email: string): void {
  if (!isPlainAddress(email))
    throw new ValidationError("INVALID_EMAIL", `"${email.slice(0, 40)}" is not an address Kairan can send mail to.`);
}

/**
 * Gives a pending invitation a new link (a new secret, its lifetime counted from `now`) and queues
 * its message again; one that hands over an imported placeholder says so again. The manager's
 * resend and the operator's share it. Returns the link's secret and when it ends.
 */
export async function renewAndQueueInvitation(
  tx: Tx,
  ctx: AccountMailContext,
  invitation: { member: Member; groupName: string; email: string; inviterName: string | undefined },
  now: number,
): Promise<{ secret: string; expiresAt: number }> {
  const { member } = invitation;
  const secret = generateSecret();
  const expiresAt = now + INVITATION_LIFETIME_MS;
  await tx.invitations.renew(member.id, { tokenHash: hashToken(secret), expiresAt, at: now });
  const sending = {
    memberId: member.id,
    groupName: invitation.groupName,
    email: invitation.email,
    secret,
    expiresAt,
    inviterName: invitation.inviterName,
    ...(member.claimUserId === null ? {} : { claimName: member.name }),
  };
  await queueInvitationMail(tx, ctx, sending, now);
  return { secret, expiresAt };
}

/** Queues the invitation's message in `tx` and records when it was sent. */
export async function queueInvitationMail(
  tx: Tx,
  ctx: AccountMailContext,
  invitation: InvitationToSend,
  now: number,
): Promise<void> {
  // A placeholder is no recipient (it gets no mail): a claim's message goes to the address alone.
  const user = invitation.claimName === undefined ? await tx.users.findByEmail(invitation.email) : undefined;
  const locale = await recipientLocale(tx, ctx, user?.id);
  const composed = invitationMail({
    ...locale,
    groupName: invitation.groupName,
    inviterName: invitation.inviterName,
    link: joinLink(ctx, invitation.memberId, invitation.secret),
    expiresAt: invitation.expiresAt,
    accountExists: user !== undefined,
    ...(invitation.claimName === undefined ? {} : { claimName: invitation.claimName }),
  });
  await queueMail(
    tx,
    ctx.config.mail,
    { kind: "invitation", to: invitation.email, toName: user?.name, userId: user?.id, ...composed },
    now,
  );
  await tx.invitations.markSent(invitation.memberId, now);
}

/**
 * Counts one invitation message of the manager in `tx` (so a refused one, rolled back, is not
 * counted) and refuses it beyond the hourly bound.
 * @throws TooManyRequestsError INVITATIONS_THROTTLED
 */
export async function countManagerMessage(tx: Tx, managerId: number, now: number): Promise<void> {
  const windowMs = ACCOUNT_MAIL_LIMITS.requestWindowMs;
  const count = await tx.loginFailures.count("invite-sender", String(managerId), now, windowMs);
  if (count.failures > ACCOUNT_MAIL_LIMITS.invitationsPerManager) {
    const seconds = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
    throw new TooManyRequestsError(
      "INVITATIONS_THROTTLED",
      `You have sent ${ACCOUNT_MAIL_LIMITS.invitationsPerManager} invitations in the last hour; try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }
}

/**
 * Asserts the group may have one more invitation waiting.
 * @throws ValidationError TOO_MANY_INVITATIONS
 */
export async function requireRoomForInvitation(tx: Tx, groupId: number): Promise<void> {
  const limit = ACCOUNT_MAIL_LIMITS.pendingInvitationsPerGroup;
  if ((await tx.memberships.countMembers(groupId, "INVITE")) >= limit)
    throw new ValidationError(
      "TOO_MANY_INVITATIONS",
      `This group has ${limit} invitations waiting already; withdraw some before inviting more.`,
    );
}

/**
 * Asserts the invitation's last message is old enough to send another.
 * @throws TooManyRequestsError INVITATION_SENT_RECENTLY
 */
export function requireResendInterval(sentAt: number | null, now: number): void {
  const next = sentAt === null ? now : sentAt + ACCOUNT_MAIL_LIMITS.resendIntervalMs;
  if (next > now) {
    const seconds = Math.max(1, Math.ceil((next - now) / 1000));
    throw new TooManyRequestsError(
      "INVITATION_SENT_RECENTLY",
      `This invitation was sent less than ${ACCOUNT_MAIL_LIMITS.resendIntervalMs / 60000} minutes ago; try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }
}
