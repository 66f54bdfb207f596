// Who administers the site, and the acts on an account that only an administrator (in the browser)
// or the operator (at the command line) may do. Each act checks the role inside its transaction
// and writes its audit row there; the role itself is granted and removed only here.
import { randomBytes } from "node:crypto";
import { hashPassword } from "../../auth/password.js";
import type { Actor } from "../../domain/access.js";
import { type AuditAction, type AuditActor, COMMAND_LINE_ACTOR, personActor, userTarget } from "../../domain/audit.js";
import { NotFoundError } from "../../domain/errors.js";
import {
  FORMER_MEMBER_NAME,
  formerMemberEmail,
  requireNotLastAdmin,
  requireSiteAdmin,
} from "../../domain/site-admin.js";
import type { User } from "../../domain/user.js";
import type { Tx } from "../../store/store.js";
import { requireUserByEmail } from "../admin-lookup.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { ServiceContext } from "../context.js";
import { type Origin, type TwoFactorContext, proveIdentity } from "../two-factor/two-factor.js";

/** Who acts: a signed-in site administrator (checked), or the operator at the command line. */
export interface Administrator {
  /** The administrator's account; undefined for the operator, who needs no role. */
  readonly userId?: number;
  readonly audit: AuditActor;
}

/** The operator at the command line. */
export const OPERATOR: Administrator = Object.freeze({ audit: COMMAND_LINE_ACTOR });

/** A signed-in person acting as an administrator, from the client `address`. */
export function administratorOf(actor: Actor, address?: string): Administrator {
  return { userId: actor.user.id, audit: personActor(actor.user, address) };
}

/** An account named by its address (the command line) or its id (the pages). */
export type UserRef = { readonly email: string } | { readonly userId: number };

/** Whether the user holds the site administrator's role now. */
export async function isSiteAdmin(ctx: ServiceContext, userId: number): Promise<boolean> {
  return ctx.store.read((tx) => tx.users.isSiteAdmin(userId));
}

/**
 * Asserts, inside the act's transaction, that `by` may administer the site.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function requireAdministrator(tx: Tx, by: Administrator): Promise<void> {
  if (by.userId !== undefined) requireSiteAdmin(await tx.users.isSiteAdmin(by.userId));
}

/** @throws NotFoundError USER_NOT_FOUND */
export async function requireUserRef(tx: Tx, ref: UserRef): Promise<User> {
  if ("email" in ref) return requireUserByEmail(tx, ref.email);
  const user = await tx.users.findById(ref.userId);
  if (!user) throw new NotFoundError("USER_NOT_FOUND", "No user has this id.");
  return user;
}

/** The audit target of an account. */

/**
 * Grants (`admin` true) or removes the site administrator's role. Removing it from the last
 * administrator who can sign in is refused, and the refusal logged.
 * @returns whether anything changed
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError LAST_ADMIN; NotFoundError USER_NOT_FOUND
 */
export async function setSiteAdmin(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly user: UserRef; readonly admin: boolean },
): Promise<{ user: User; changed: boolean }> {
  const action = input.admin ? "user.admin.grant" : "user.admin.revoke";
  return refusalLogged(ctx, by, action, async (tx) => {
    const user = await requireUserRef(tx, input.user);
    const was = await tx.users.isSiteAdmin(user.id);
    if (was === input.admin) return { user, changed: false };
    if (!input.admin) requireNotLastAdmin(await tx.users.listActiveAdminIds(), user.id);
    await tx.users.update(user.id, { siteAdmin: input.admin });
    await recordAudit(tx, ctx.clock, { action, actor: by.audit, target: userTarget(user) });
    return { user, changed: true };
  });
}

/**
 * Ends every web session of the account (its tokens stay: they belong to applications).
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError USER_NOT_FOUND
 */
export async function signOutEverywhere(
  ctx: ServiceContext,
  by: Administrator,
  ref: UserRef,
): Promise<{ user: User; sessionsEnded: number }> {
  return refusalLogged(ctx, by, "sign-out.everywhere", async (tx) => {
    const user = await requireUserRef(tx, ref);
    const sessionsEnded = await tx.sessions.removeOfUser(user.id);
    await recordAudit(tx, ctx.clock, {
      action: "sign-out.everywhere",
      actor: by.audit,
      target: userTarget(user),
      details: { sessionsEnded },
    });
    return { user, sessionsEnded };
  });
}

/**
 * Deletes an account. Its content stays (topics, comments, tasks, files, events, chat messages,
 * group memberships) under the name "former member"; what was the person's own goes: name,
 * reading, address (free again for a new account), password, picture, sessions and tokens, and
 * the administrator's role. The account stays disabled for good. The last administrator is kept.
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError LAST_ADMIN; NotFoundError USER_NOT_FOUND
 */
export async function deleteUser(ctx: ServiceContext, by: Administrator, ref: UserRef): Promise<User> {
  // A password nobody knows, hashed before the transaction (hashing is slow).
  const passwordHash = await hashPassword(randomBytes(24).toString("base64url"));
  return refusalLogged(ctx, by, "user.delete", async (tx) =>
    eraseAccount(tx, ctx, await requireUserRef(tx, ref), { passwordHash, actor: by.audit, self: false }),
  );
}

/**
 * The signed-in person deletes their own account, proven by their password or a current
 * second-factor code: the same deletion as {@link deleteUser} (what goes, what stays), with the
 * person as the audit row's actor. The last administrator cannot delete themself.
 * @throws ValidationError TWO_FACTOR_PROOF_WRONG, LAST_ADMIN; TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function deleteOwnAccount(
  ctx: TwoFactorContext,
  actor: Actor,
  input: { readonly proof: string } & Origin,
): Promise<User> {
  const who = personActor(actor.user, input.address);
  const entry = { action: "user.delete", actor: who, target: userTarget(actor.user), details: { self: true } } as const;
  return auditRefusals(ctx, entry, async () => {
    // Refused before the password is asked for, and again inside the deletion (another
    // administrator may have gone meanwhile).
    requireNotLastAdmin(await ctx.store.read((tx) => tx.users.listActiveAdminIds()), actor.user.id, true);
    await proveIdentity(ctx, actor, input);
    const passwordHash = await hashPassword(randomBytes(24).toString("base64url"));
    return ctx.store.transaction(async (tx) =>
      eraseAccount(tx, ctx, await requireUserRef(tx, { userId: actor.user.id }), {
        passwordHash,
        actor: who,
        self: true,
      }),
    );
  });
}

/** The deletion itself, inside the act's transaction: what goes goes, the rest stays; one `user.delete` row. */
async function eraseAccount(
  tx: Tx,
  ctx: Pick<ServiceContext, "clock">,
  user: User,
  how: { readonly passwordHash: string; readonly actor: AuditActor; readonly self: boolean },
): Promise<User> {
  requireNotLastAdmin(await tx.users.listActiveAdminIds(), user.id, how.self);
  const now = ctx.clock.now();
  const wasDisabled = (await tx.users.isDisabled(user.id)) === true;
  await tx.users.update(user.id, {
    name: FORMER_MEMBER_NAME,
    familyKana: "",
    givenKana: "",
    email: formerMemberEmail(user.id),
    passwordHash: how.passwordHash,
    siteAdmin: false,
    ...(wasDisabled ? {} : { disabledAt: now }),
  });
  await tx.sessions.removeOfUser(user.id);
  await tx.tokens.revokeAllOfUser(user.id, "personal", now);
  await tx.tokens.revokeAllOfUser(user.id, "oauth", now);
  await tx.userPictures.remove(user.id);
  await recordAudit(tx, ctx.clock, {
    action: "user.delete",
    actor: how.actor,
    target: userTarget(user),
    ...(how.self ? { details: { self: true } } : {}),
  });
  return { ...user, name: FORMER_MEMBER_NAME, email: formerMemberEmail(user.id), familyKana: "", givenKana: "" };
}

/**
 * Runs an administrator's act in one transaction after checking the role there; when the role
 * is missing, writes a `refused` row for `action` and throws on. Other refusals (a rule, a missing
 * account) are logged alike: the row says what was tried and why not.
 */
export async function refusalLogged<T>(
  ctx: Pick<ServiceContext, "store" | "clock">,
  by: Administrator,
  action: AuditAction,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return auditRefusals(ctx, { action, actor: by.audit }, () =>
    ctx.store.transaction(async (tx) => {
      await requireAdministrator(tx, by);
      return work(tx);
    }),
  );
}
