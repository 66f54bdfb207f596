// Taking an invitation: an invited person with an account accepts or declines it on their home
// page; a person without one follows the invitation's link and, when the operator allows people to
// make their own accounts, makes one there and joins at once.
import type { Actor } from "../../domain/access.js";
import { hashPassword } from "../../auth/password.js";
import { hashToken } from "../../auth/token.js";
import { invitationNotFound, requireLinkSecret, requireLive } from "../../domain/invitation.js";
import { checkNameAndPassword, requireSignupOpen } from "../../domain/signup.js";
import type { User } from "../../domain/user.js";
import type { InvitationRow } from "../../store/queries/invitations.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { announceJoined } from "./membership-events.js";
import { insertAccount } from "../account/account-write.js";

/** What the sign-up services need of the configuration. */
export interface SignupContext extends ServiceContext {
  readonly config: { readonly allowSignup: boolean };
}

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
    requireLive(invitation.expiresAt, ctx.clock.now());
    await join(tx, invitation, actor.user.id, ctx.clock.now());
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
  });
}

/** What an invitation's link shows: the invitation, and whether its address has an account. */
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
    return { invitation, accountExists: (await tx.users.findByEmail(invitation.email)) !== undefined };
  });
}

/**
 * Makes an account for the invited address (name and password typed by its holder) and joins the
 * group with it. An address that has an account already signs in and accepts on the home page.
 * @throws ForbiddenError SIGNUP_CLOSED; NotFoundError INVITATION_NOT_FOUND; ValidationError INVITATION_EXPIRED, EMAIL_TAKEN, and as checkAccountDraft
 */
export async function joinWithNewAccount(
  ctx: SignupContext,
  input: { memberId: number; secret: string; name: string; password: string },
): Promise<{ user: User; invitation: InvitationRow }> {
  requireSignupOpen(ctx.config.allowSignup);
  const draft = checkNameAndPassword(input);
  const passwordHash = await hashPassword(draft.password);
  return ctx.store.transaction(async (tx) => {
    const at = ctx.clock.now();
    const invitation = await linkedInvitation(tx, input, at);
    const account = { name: draft.name, email: invitation.email, familyKana: "", givenKana: "", passwordHash };
    const user = await insertAccount(tx, account, at);
    await join(tx, invitation, user.id, at);
    return { user, invitation };
  });
}

async function join(tx: Tx, invitation: InvitationRow, userId: number, at: number): Promise<void> {
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

async function linkedInvitation(
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
