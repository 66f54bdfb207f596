// Handing an imported placeholder account over to its person (issue #32): a group's manager (or
// the operator, `kairan member invite-placeholder`) invites the person's real address with a link
// that names the placeholder; on the link's page its recipient chooses a name and password, and
// the placeholder becomes their ordinary account, with everything imported under it. Nobody
// signed in takes one over, and an address that has an account of its own is refused: merging two
// accounts is not offered.
import type { Actor } from "../../domain/access.js";
import { type AuditEntry, actorOf, membershipTarget, personActor, userTarget } from "../../domain/audit.js";
import { hashPassword } from "../../auth/password.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import { INVITATION_LIFETIME_MS, invitationNotFound, normalizeEmail } from "../../domain/invitation.js";
import { claimAddressTaken, claimSignedIn, notAPlaceholder } from "../../domain/placeholder.js";
import { checkNameAndPassword, requireInvitationMayCreate } from "../../domain/signup.js";
import type { User } from "../../domain/user.js";
import type { InvitationRow } from "../../store/queries/invitations.js";
import type { Tx } from "../../store/store.js";
import { requireGroup } from "../admin-lookup.js";
import { claimPlaceholderAccount } from "../account/account-write.js";
import type { AccountMailContext } from "../account/mail-recipient.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import { requireGroupManager } from "../group/group-access.js";
import { readSiteSettings } from "../settings/site-settings.js";
import { type SignupContext, linkedInvitation } from "./invitation.js";
import {
  countManagerMessage,
  queueInvitationMail,
  requireMailable,
  requireRoomForInvitation,
} from "./invitation-mail.js";
import type { IssuedInvitation } from "./member-manage.js";
import { insertInvitation } from "./member-write.js";

/**
 * A manager invites the person of a placeholder member to take it over, at their real address:
 * a message with the link, as for any invitation, and in the same bounds. A newer invitation for
 * the placeholder replaces an older one.
 * @throws NotFoundError MEMBER_NOT_FOUND; ValidationError NOT_A_PLACEHOLDER, INVALID_EMAIL, CLAIM_ADDRESS_TAKEN,
 *   ALREADY_INVITED, TOO_MANY_INVITATIONS; TooManyRequestsError INVITATIONS_THROTTLED; ForbiddenError MANAGER_REQUIRED
 */
export async function invitePlaceholder(
  ctx: AccountMailContext,
  actor: Actor,
  input: { groupId: number; memberId: number; email: string },
): Promise<IssuedInvitation> {
  const tried: AuditEntry = {
    action: "member.invite",
    actor: actorOf(actor),
    groupId: input.groupId,
    details: { email: input.email.slice(0, 100), memberId: input.memberId, placeholder: true },
  };
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const member = await tx.memberships.findMember(input.memberId);
      if (!member || member.groupId !== group.id)
        throw new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
      const placeholder = await requirePlaceholder(tx, member.status === "JOIN" ? member.userId : null);
      const at = ctx.clock.now();
      const issued = await issueClaim(tx, ctx, {
        group,
        placeholder,
        email: input.email,
        inviterName: actor.user.name,
        expiresAt: at + INVITATION_LIFETIME_MS,
        at,
        bounded: actor.user.id,
      });
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: membershipTarget({ id: issued.memberId, name: placeholder.name }),
        details: { email: issued.email, expiresAt: issued.expiresAt, placeholder: placeholder.id },
      });
      return issued;
    }),
  );
}

/**
 * The operator's invitation to take over a placeholder member (`kairan member invite-placeholder`):
 * the same link and message as a manager's, without a manager's bounds.
 * @throws NotFoundError GROUP_NOT_FOUND; ValidationError NOT_A_PLACEHOLDER, INVALID_EMAIL, CLAIM_ADDRESS_TAKEN, ALREADY_INVITED
 */
export async function invitePlaceholderAsOperator(
  ctx: AccountMailContext,
  input: { groupId: number; placeholderEmail: string; email: string; expiresAt: number | null },
): Promise<IssuedInvitation> {
  return ctx.store.transaction(async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    const user = await tx.users.findByEmail(input.placeholderEmail.trim());
    const joined = user && (await tx.memberships.findJoined(group.id, user.id));
    const placeholder = await requirePlaceholder(tx, joined ? joined.userId : null);
    const at = ctx.clock.now();
    const expiresAt = input.expiresAt ?? at + INVITATION_LIFETIME_MS;
    const issued = await issueClaim(tx, ctx, { group, placeholder, email: input.email, expiresAt, at });
    const member = { id: issued.memberId, name: placeholder.name };
    await recordAudit(tx, ctx.clock, {
      action: "member.invite",
      actor: { label: "command line" },
      target: membershipTarget(member),
      groupId: group.id,
      details: { email: issued.email, expiresAt, placeholder: placeholder.id },
    });
    return issued;
  });
}

/** @throws ValidationError NOT_A_PLACEHOLDER (no user, an ordinary account, or one claimed already) */
async function requirePlaceholder(tx: Tx, userId: number | null): Promise<User> {
  const placeholder = userId === null ? undefined : await tx.users.findPlaceholder(userId);
  if (!placeholder) throw notAPlaceholder();
  return placeholder;
}

/** The invitation row and its message; `bounded` names the manager whose hourly bound counts it. */
async function issueClaim(
  tx: Tx,
  ctx: AccountMailContext,
  input: {
    group: Group;
    placeholder: User;
    email: string;
    inviterName?: string;
    expiresAt: number;
    at: number;
    bounded?: number;
  },
): Promise<IssuedInvitation> {
  const { group, placeholder, at, expiresAt } = input;
  const email = normalizeEmail(input.email);
  requireMailable(email);
  await requireAddressFree(tx, email, placeholder.id);
  await tx.invitations.removeClaimsOf(placeholder.id);
  if ((await tx.invitations.findForEmail(group.id, email)) !== undefined)
    throw new ValidationError(
      "ALREADY_INVITED",
      `${email.slice(0, 40)} is invited already; withdraw that invitation first.`,
    );
  if (input.bounded !== undefined) {
    await requireRoomForInvitation(tx, group.id);
    await countManagerMessage(tx, input.bounded, at);
  }
  const secret = generateSecret();
  const invite = { groupId: group.id, email, label: placeholder.name, expiresAt, tokenHash: hashToken(secret) };
  const memberId = await insertInvitation(tx, { ...invite, claimUserId: placeholder.id }, at);
  const sending = { memberId, groupName: group.name, email, secret, expiresAt, inviterName: input.inviterName };
  await queueInvitationMail(tx, ctx, { ...sending, claimName: placeholder.name }, at);
  return { group, memberId, email, expiresAt, secret, accountExists: false };
}

/** @throws ValidationError CLAIM_ADDRESS_TAKEN (an account other than the placeholder has the address) */
async function requireAddressFree(tx: Tx, email: string, placeholderId: number): Promise<void> {
  const holder = await tx.users.findByEmail(email);
  if (holder && holder.id !== placeholderId) throw claimAddressTaken(email);
}

/**
 * Whether the invitation of this id hands over a placeholder (which link's form it is); false for
 * an ordinary one and for no invitation at all. The secret is checked by what is done next.
 */
export async function handsOverPlaceholder(ctx: SignupContext, memberId: number): Promise<boolean> {
  const invitation = await ctx.store.read((tx) => tx.invitations.find(memberId));
  return invitation !== undefined && invitation.claimUserId !== null;
}

/**
 * Takes over the placeholder an invitation's link hands over: its name and password are the
 * recipient's choice, its address the invited one; it is enabled and no longer a placeholder, and
 * every invitation for it ends. Refused to a person signed in to an account (no merging), and
 * under the `closed` sign-up policy, as a new account through an invitation is.
 * @throws NotFoundError INVITATION_NOT_FOUND (also once claimed); ValidationError INVITATION_EXPIRED,
 *   CLAIM_SIGNED_IN, CLAIM_ADDRESS_TAKEN, and as checkNameAndPassword; ForbiddenError SIGNUP_CLOSED
 */
export async function claimPlaceholder(
  ctx: SignupContext,
  input: { memberId: number; secret: string; name: string; password: string; signedIn: boolean; address?: string },
): Promise<{ user: User; invitation: InvitationRow }> {
  const tried = {
    action: "user.claim",
    actor: {
      label: `invitation ${input.memberId}`,
      ...(input.address === undefined ? {} : { address: input.address }),
    },
    details: { memberId: input.memberId },
  } as const;
  return auditRefusals(ctx, tried, async () => {
    if (input.signedIn) throw claimSignedIn();
    const draft = checkNameAndPassword(input);
    requireInvitationMayCreate(await readSiteSettings(ctx));
    const passwordHash = await hashPassword(draft.password);
    return ctx.store.transaction(async (tx) => {
      const at = ctx.clock.now();
      const invitation = await linkedInvitation(tx, input, at);
      const placeholder =
        invitation.claimUserId === null ? undefined : await tx.users.findPlaceholder(invitation.claimUserId);
      if (!placeholder) throw invitationNotFound();
      await requireAddressFree(tx, invitation.email, placeholder.id);
      await claimPlaceholderAccount(tx, placeholder.id, { name: draft.name, passwordHash, email: invitation.email });
      await tx.invitations.removeClaimsOf(placeholder.id);
      const user: User = { ...placeholder, name: draft.name, email: invitation.email };
      await recordAudit(tx, ctx.clock, {
        ...tried,
        actor: personActor(user, input.address),
        target: userTarget(user),
        groupId: invitation.groupId,
        details: { memberId: input.memberId, before: placeholder.name, email: invitation.email },
      });
      return { user, invitation };
    });
  });
}
