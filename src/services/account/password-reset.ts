// "Forgot your password?": a single-use link by mail to the account's address, valid one hour.
// Asking answers the same, and does the same writes, whether or not an account has the address:
// nobody learns which addresses have accounts. Following the link sets a new password, ends every
// web session of the account and the tokens applications got by signing in with it, and signs in.
import { hashPassword } from "../../auth/password.js";
import { ACCOUNT_MAIL_LIMITS } from "../../domain/account-link.js";
import { personActor, userTarget } from "../../domain/audit.js";
import { TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { normalizeEmail } from "../../domain/invitation.js";
import { type User, checkNewPassword } from "../../domain/user.js";
import { passwordResetMail } from "../../mail/account/password-reset.js";
import { isPlainAddress } from "../../mail/message.js";
import type { MailRequestScope } from "../../store/queries/login-failures.js";
import type { Tx } from "../../store/store.js";
import { recordAudit, recordRefusal } from "../audit/audit-log.js";
import { queueMail } from "../mail/outbox.js";
import { accountKey } from "../session/sign-in.js";
import { type IssuedLink, issueLink, liveLink, useLink } from "./account-links.js";
import { type AccountMailContext, recipientLocale } from "./mail-recipient.js";
import { type Administrator, OPERATOR, type UserRef, refusalLogged, requireUserRef } from "./site-admin.js";

const SCOPES: readonly MailRequestScope[] = ["reset-address", "reset-account", "reset-client"];

/**
 * Asks for a reset link for `email`, from the client `address`. The answer is the same whether or
 * not an account has the address; only then does a message go (at most resetsPerAccount a window;
 * beyond, silently none). A disabled account gets none.
 * @throws ValidationError INVALID_EMAIL; TooManyRequestsError PASSWORD_RESET_THROTTLED (per typed address or client, alike for every address)
 */
export async function requestPasswordReset(
  ctx: AccountMailContext,
  input: { email: string; address: string },
): Promise<void> {
  const email = normalizeEmail(input.email);
  const now = ctx.clock.now();
  const limits = ACCOUNT_MAIL_LIMITS;
  const windowMs = limits.requestWindowMs;
  // Counted in a transaction of its own, so that a refused request still counts.
  const counts = await ctx.store.transaction(async (tx) => {
    await tx.loginFailures.removeExpired(now - windowMs, SCOPES);
    return {
      client: await tx.loginFailures.count("reset-client", input.address, now, windowMs),
      email: await tx.loginFailures.count("reset-address", email, now, windowMs),
    };
  });
  const over = [
    counts.client.failures > limits.resetsPerClient ? counts.client.windowStart : undefined,
    counts.email.failures > limits.resetsPerAddress ? counts.email.windowStart : undefined,
  ].filter((start) => start !== undefined);
  // The address as typed names the asker: nobody is signed in, and nothing says whose account it is.
  const asker = { label: email, address: input.address };
  if (over.length > 0) {
    await recordRefusal(ctx, {
      action: "password.reset.request",
      actor: asker,
      details: { code: "PASSWORD_RESET_THROTTLED" },
    });
    const seconds = Math.max(1, Math.ceil((Math.max(...over) + windowMs - now) / 1000));
    throw new TooManyRequestsError(
      "PASSWORD_RESET_THROTTLED",
      `Too many password reset requests; try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }
  await ctx.store.transaction(async (tx) => {
    const found = await tx.users.findCredentialsByEmail(email);
    // Counted for an unknown address too (under the address), so both take the same writes.
    const key = found === undefined ? email : String(found.id);
    const account = await tx.loginFailures.count("reset-account", key, now, windowMs);
    // An address no mail can go to (an operator's odd `kairan user add`) is answered alike, too.
    const mailed =
      found !== undefined &&
      !found.disabled &&
      isPlainAddress(found.email) &&
      account.failures <= limits.resetsPerAccount;
    const user = found === undefined ? undefined : accountOf(found);
    // Written for every request, so that one for an unknown address does the same writes.
    await recordAudit(tx, ctx.clock, {
      action: "password.reset.request",
      actor: asker,
      ...(user === undefined ? {} : { target: userTarget(user) }),
      details: { mailed },
    });
    if (mailed && user !== undefined) await queueResetMail(tx, ctx, user, await issueResetLink(tx, user.id, now), now);
  });
}

/** Where a reset link stands, for its page: the account it resets. */
export interface ResetLinkView {
  readonly email: string;
  readonly name: string;
}

/**
 * The account a live reset link resets.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED
 */
export async function readPasswordReset(ctx: AccountMailContext, secret: string): Promise<ResetLinkView> {
  return ctx.store.read(async (tx) => {
    const link = await liveLink(tx, "password-reset", secret, ctx.clock.now());
    const user = await tx.users.findById(link.userId ?? 0);
    if (user === undefined)
      throw new ValidationError("LINK_USED", "This link has been used already; each link works once.");
    return { email: user.email, name: user.name };
  });
}

/** What a reset did. */
export interface PasswordResetDone {
  readonly user: User;
  readonly sessionsEnded: number;
  readonly tokensRevoked: number;
}

/**
 * Sets the new password through a reset link (used up by this), ends every web session of the
 * account and revokes the tokens applications got through its sign-in (origin `oauth`; personal
 * tokens stay), forgets its failed sign-ins and its other reset links.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED, and those of checkNewPassword
 */
export async function resetPassword(
  ctx: AccountMailContext,
  input: { secret: string; password: string; repeated: string; address?: string },
): Promise<PasswordResetDone> {
  checkNewPassword(input.password, input.repeated);
  const passwordHash = await hashPassword(input.password);
  return ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    const link = await useLink(tx, "password-reset", input.secret, now);
    const found = await tx.users.findById(link.userId ?? 0);
    if (found === undefined || (await tx.users.isDisabled(found.id)))
      throw new ValidationError("LINK_USED", "This link has been used already; each link works once.");
    await tx.users.update(found.id, { passwordHash });
    await tx.accountTokens.removeOthersOfUser(found.id, "password-reset", link.id);
    await tx.loginFailures.clearAccount(accountKey(found.email));
    const done = {
      user: found,
      sessionsEnded: await tx.sessions.removeOfUser(found.id),
      tokensRevoked: await tx.tokens.revokeAllOfUser(found.id, "oauth", now),
    };
    await recordAudit(tx, ctx.clock, {
      action: "password.reset",
      actor: personActor(found, input.address),
      target: userTarget(found),
      details: { sessionsEnded: done.sessionsEnded, tokensRevoked: done.tokensRevoked },
    });
    return done;
  });
}

/** What `kairan user reset-password` did: the link was mailed, or (`--print`) is printed. */
export interface OperatorReset {
  readonly user: User;
  readonly expiresAt: number;
  /** The link, when it is printed rather than mailed. */
  readonly link?: string;
}

/**
 * An operator's (or a site administrator's) reset link for the account: queued as a message, or
 * (`print`) returned instead, for a server without mail. No throttle: the operator is at the
 * server's shell, the administrator signed in. Writes its audit row (never the link).
 * @throws NotFoundError USER_NOT_FOUND; ForbiddenError ADMIN_REQUIRED
 */
export async function resetPasswordAsOperator(
  ctx: AccountMailContext,
  input: UserRef & { print: boolean },
  by: Administrator = OPERATOR,
): Promise<OperatorReset> {
  return refusalLogged(ctx, by, "password.reset", async (tx) => {
    const now = ctx.clock.now();
    const user = await requireUserRef(tx, input);
    const issued = await issueResetLink(tx, user.id, now);
    await recordAudit(tx, ctx.clock, {
      action: "password.reset.request",
      actor: by.audit,
      target: userTarget(user),
      details: { link: input.print ? "shown" : "mailed" },
    });
    if (input.print) return { user, expiresAt: issued.expiresAt, link: resetLinkOf(ctx, issued.secret) };
    await queueResetMail(tx, ctx, user, issued, now);
    return { user, expiresAt: issued.expiresAt };
  });
}

function accountOf(found: User & { readonly passwordHash: string; readonly disabled: boolean }): User {
  const { passwordHash: _hash, disabled: _disabled, ...user } = found;
  return user;
}

function issueResetLink(tx: Tx, userId: number, now: number): Promise<IssuedLink> {
  const link = { purpose: "password-reset" as const, userId, email: null };
  return issueLink(tx, { ...link, lifetimeMs: ACCOUNT_MAIL_LIMITS.passwordResetMs }, now);
}

/** `{base}/password/reset/SECRET`. */
function resetLinkOf(ctx: AccountMailContext, secret: string): string {
  return `${ctx.baseUrl()}/password/reset/${secret}`;
}

async function queueResetMail(
  tx: Tx,
  ctx: AccountMailContext,
  user: User,
  issued: IssuedLink,
  now: number,
): Promise<void> {
  const locale = await recipientLocale(tx, ctx, user.id);
  const composed = passwordResetMail({
    ...locale,
    name: user.name,
    email: user.email,
    link: resetLinkOf(ctx, issued.secret),
    expiresAt: issued.expiresAt,
  });
  await queueMail(
    tx,
    ctx.config.mail,
    { kind: "password-reset", to: user.email, toName: user.name, userId: user.id, ...composed },
    now,
  );
}
