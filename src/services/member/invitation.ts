// Taking an invitation: an invited person with an account accepts or declines it on their home
// page (or on the link's page, signed in); a person without one follows the invitation's link and
// makes one there and joins at once. The invitation is the permission: this works under every
// sign-up policy but `closed`, which makes no new accounts at all (existing accounts still join).
import type { Actor } from "../../domain/access.js";
import { actorOf, membershipTarget, personActor, userTarget } from "../../domain/audit.js";
import { hashPassword } from "../../auth/password.js";
import { hashToken } from "../../auth/token.js";
import { invitationNotFound, requireLinkSecret, requireLive } from "../../domain/invitation.js";
import { requireNotArchived } from "../../domain/group.js";
import { checkNameAndPassword, requireInvitationMayCreate } from "../../domain/signup.js";
import type { User } from "../../domain/user.js";
import type { InvitationRow } from "../../store/queries/invitations.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import { type SettingsContext, readSiteSettings } from "../settings/site-settings.js";
import { announceJoined } from "./membership-events.js";
import { insertAccount } from "../account/account-write.js";

/** What the sign-up services need: the site's settings (the sign-up policy) over the server's options. */
export type SignupContext = SettingsContext;

/** The invitations waiting for the caller's e-mail address that have not expired. */
export async function listMyInvitations(ctx: ServiceContext, actor: Actor): Promise<InvitationRow[]> {
  return ctx.store.read((tx) => tx.invitations.listLiveForEmail(actor.user.email.toLowerCase(), ctx.clock.now()));
}

/**
 * Accepts an invitation to the caller's address: they join as a member; the others are told.
 * @throws NotFoundError INVITATION_NOT_FOUND; ValidationError INVITATION_EXPIRED
 */
export async function acceptInvitation(
  ctx: ServiceContext,
  actor: Actor,
  input: { memberId: number },
): Promise<InvitationRow> {
  return ctx.store.transaction(async (tx) => {
    const invitation = await invitationFor(tx, actor.user, input.memberId);
    // An invitation that hands over a placeholder is taken on its link's page, never by another account.
    if (invitation.claimUserId !== null) throw invitationNotFound();
    requireLive(invitation.expiresAt, ctx.clock.now());
    await join(tx, invitation, actor.user.id, ctx.clock.now());
    await recordAudit(tx, ctx.clock, {
      action: "member.add",
      actor: actorOf(actor),
      target: membershipTarget({ id: invitation.memberId, name: actor.user.name }),
      groupId: invitation.groupId,
      details: { userId: actor.user.id, invitation: true },
    });
    return invitation;
  });
}

/**
 * Declines an invitation to the caller's address (expired or not): it is gone.
 * @throws NotFoundError INVITATION_NOT_FOUND
 */
export async function declineInvitation(ctx: ServiceContext, actor: Actor, input: { memberId: number }): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    const invitation = await invitationFor(tx, actor.user, input.memberId);
    await tx.memberships.remove(invitation.memberId);
    await recordAudit(tx, ctx.clock, {
      action: "member.remove",
      actor: actorOf(actor),
      target: membershipTarget({ id: invitation.memberId, name: invitation.email }),
      groupId: invitation.groupId,
      details: { invitation: true, declined: true },
    });
  });
}

/**
 * What an invitation's link shows: the invitation, and whether its address has an account (for
 * one that hands over a placeholder: an account other than the placeholder).
 */
export interface InvitationLinkView {
  readonly invitation: InvitationRow;
  readonly accountExists: boolean;
}

/**
 * The invitation a link names, when its secret matches and it has not expired.
 * @throws NotFoundError INVITATION_NOT_FOUND; ValidationError INVITATION_EXPIRED
 */
export async function readInvitationLink(
  ctx: ServiceContext,
  input: { memberId: number; secret: string },
): Promise<InvitationLinkView> {
  return ctx.store.read(async (tx) => {
    const invitation = await linkedInvitation(tx, input, ctx.clock.now());
    const holder = await tx.users.findByEmail(invitation.email);
    if (invitation.claimUserId === null) return { invitation, accountExists: holder !== undefined };
    // A placeholder claimed already (or enabled by an operator) has nothing left to hand over.
    if (!(await tx.users.findPlaceholder(invitation.claimUserId))) throw invitationNotFound();
    return { invitation, accountExists: holder !== undefined && holder.id !== invitation.claimUserId };
  });
}

/**
 * Makes an account for the invited address (name and password typed by its holder, from the
 * client `address`) and joins the group with it, unless the sign-up policy is `closed`. An
 * address that has an account already signs in and accepts.
 * @throws NotFoundError INVITATION_NOT_FOUND; ValidationError INVITATION_EXPIRED, EMAIL_TAKEN, and as checkAccountDraft;
 *   ForbiddenError SIGNUP_CLOSED
 */
export async function joinWithNewAccount(
  ctx: SignupContext,
  input: { memberId: number; secret: string; name: string; password: string; address?: string },
): Promise<{ user: User; invitation: InvitationRow }> {
  const tried = {
    action: "user.create",
    actor: {
      label: `invitation ${input.memberId}`,
      ...(input.address === undefined ? {} : { address: input.address }),
    },
    details: { via: "invitation", memberId: input.memberId },
  } as const;
  const draft = checkNameAndPassword(input);
  return auditRefusals(ctx, tried, async () => {
    requireInvitationMayCreate(await readSiteSettings(ctx));
    const passwordHash = await hashPassword(draft.password);
    return ctx.store.transaction(async (tx) => {
      const at = ctx.clock.now();
      const invitation = await linkedInvitation(tx, input, at);
      const account = { name: draft.name, email: invitation.email, familyKana: "", givenKana: "", passwordHash };
      const user = await insertAccount(tx, account, at);
      await join(tx, invitation, user.id, at);
      const actor = personActor(user, input.address);
      const joined = { actor, groupId: invitation.groupId };
      await recordAudit(tx, ctx.clock, { ...tried, ...joined, target: userTarget(user) });
      await recordAudit(tx, ctx.clock, {
        ...joined,
        action: "member.add",
        target: membershipTarget({ id: invitation.memberId, name: user.name }),
        details: { userId: user.id, invitation: true },
      });
      return { user, invitation };
    });
  });
}

/** @throws ForbiddenError GROUP_ARCHIVED (an archived group takes no new members) */
async function join(tx: Tx, invitation: InvitationRow, userId: number, at: number): Promise<void> {
  const group = await tx.groups.findById(invitation.groupId);
  if (group) requireNotArchived(group);
  // Added meanwhile by an operator: the invitation has nothing left to do.
  if (await tx.memberships.findJoined(invitation.groupId, userId)) {
    await tx.memberships.remove(invitation.memberId);
    return;
  }
  await tx.invitations.accept(invitation.memberId, userId, at);
  await announceJoined(tx, invitation.groupId, userId, at);
}

async function invitationFor(tx: Tx, user: { email: string }, memberId: number): Promise<InvitationRow> {
  const invitation = await tx.invitations.find(memberId);
  // Someone else's invitation is as unknown to the caller as one that does not exist.
  if (!invitation || invitation.email !== user.email.toLowerCase()) throw invitationNotFound();
  return invitation;
}

/**
 * The invitation a link names, when its secret matches and it has not expired.
 * @throws NotFoundError INVITATION_NOT_FOUND; ValidationError INVITATION_EXPIRED
 */
export async function linkedInvitation(
  tx: Tx,
  input: { memberId: number; secret: string },
  now: number,
): Promise<InvitationRow> {
  const invitation = await tx.invitations.find(input.memberId);
  if (!invitation) throw invitationNotFound();
  requireLinkSecret(hashToken(input.secret), invitation.tokenHash);
  requireLive(invitation.expiresAt, now);
  return invitation;
}
