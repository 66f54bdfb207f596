// A person changes their account's e-mail address on the account page: a link goes to the new
// address, and the change happens only when it is followed; the old address is then told. An
// address another account has is refused without saying so to the asker: its holder is told
// instead, and no link goes out.
import { ACCOUNT_MAIL_LIMITS } from "../../domain/account-link.js";
import type { Actor } from "../../domain/access.js";
import { personActor, userTarget } from "../../domain/audit.js";
import { TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { normalizeEmail } from "../../domain/invitation.js";
import type { User } from "../../domain/user.js";
import { addressChangedMail, addressConfirmMail, addressTakenMail } from "../../mail/account/address-change.js";
import type { Tx } from "../../store/store.js";
import type { SignInContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { queueMail } from "../mail/outbox.js";
import { emailTaken } from "./account-write.js";
import { signInThrottled } from "../session/sign-in.js";
import { requireMailable } from "../member/invitation-mail.js";
import { issueLink, liveLink, useLink } from "./account-links.js";
import { type AccountMailContext, recipientLocale } from "./mail-recipient.js";

/** What the address change services need: mail, and the sign-in throttle for the password check. */
export type AddressChangeContext = AccountMailContext & SignInContext;

/**
 * Asks to change the signed-in person's address to `email`, proven by their current password
 * (counted by the sign-in throttle). A confirmation link goes to the new address; when another
 * account has it, that address is told instead, and the answer is the same.
 * @throws ValidationError INVALID_EMAIL, EMAIL_UNCHANGED, CURRENT_PASSWORD_WRONG;
 *   TooManyRequestsError SIGN_IN_THROTTLED, ADDRESS_CHANGE_THROTTLED
 */
export async function requestAddressChange(
  ctx: AddressChangeContext,
  actor: Actor,
  input: { email: string; password: string; address: string; device?: string | undefined },
): Promise<void> {
  const email = normalizeEmail(input.email);
  requireMailable(email);
  if (email === actor.user.email.toLowerCase())
    throw new ValidationError("EMAIL_UNCHANGED", "This is your address already.");
  const attempt = {
    email: actor.user.email,
    password: input.password,
    address: input.address,
    device: input.device,
    via: "password-check" as const,
  };
  if (!(await signInThrottled(ctx, attempt)))
    throw new ValidationError("CURRENT_PASSWORD_WRONG", "The current password is wrong.");
  await ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    await countRequest(tx, actor.user.id, now);
    const holder = await tx.users.findByEmail(email);
    if (holder !== undefined) {
      const composed = addressTakenMail(await recipientLocale(tx, ctx, holder.id));
      await queueMail(tx, ctx.config.mail, { kind: "address-confirm", to: email, userId: holder.id, ...composed }, now);
      return;
    }
    const lifetimeMs = ACCOUNT_MAIL_LIMITS.addressConfirmMs;
    const issued = await issueLink(tx, { purpose: "address-confirm", userId: actor.user.id, email, lifetimeMs }, now);
    const composed = addressConfirmMail({
      ...(await recipientLocale(tx, ctx, actor.user.id)),
      name: actor.user.name,
      link: `${ctx.baseUrl()}/account/email/confirm/${issued.secret}`,
      expiresAt: issued.expiresAt,
    });
    await queueMail(
      tx,
      ctx.config.mail,
      { kind: "address-confirm", to: email, toName: actor.user.name, ...composed },
      now,
    );
  });
}

/** What a confirmation link changes. */
export interface AddressChangeView {
  readonly name: string;
  readonly oldEmail: string;
  readonly newEmail: string;
}

/**
 * The change a live confirmation link makes.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED
 */
export async function readAddressChange(ctx: AccountMailContext, secret: string): Promise<AddressChangeView> {
  return ctx.store.read(async (tx) => {
    const link = await liveLink(tx, "address-confirm", secret, ctx.clock.now());
    const user = await accountOf(tx, link.userId);
    return { name: user.name, oldEmail: user.email, newEmail: link.email ?? "" };
  });
}

/**
 * Makes the change a confirmation link names (using it up), ends the account's other pending
 * changes, and tells the old address; the audit row names the client `address` that followed it.
 * @throws NotFoundError LINK_NOT_FOUND; ValidationError LINK_USED, LINK_EXPIRED, EMAIL_TAKEN
 */
export async function confirmAddressChange(
  ctx: AccountMailContext,
  secret: string,
  address?: string,
): Promise<AddressChangeView & { readonly user: User }> {
  return ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    const link = await useLink(tx, "address-confirm", secret, now);
    const user = await accountOf(tx, link.userId);
    const newEmail = link.email ?? "";
    // Taken meanwhile (an account made or changed to it since the link went out): nothing changes.
    if ((await tx.users.findByEmail(newEmail)) !== undefined) throw emailTaken(newEmail);
    await tx.users.update(user.id, { email: newEmail });
    await recordAudit(tx, ctx.clock, {
      action: "address.change",
      actor: personActor(user, address),
      target: userTarget({ ...user, email: newEmail }),
      details: { before: user.email, after: newEmail },
    });
    await tx.accountTokens.removeOthersOfUser(user.id, "address-confirm", link.id);
    const composed = addressChangedMail({
      ...(await recipientLocale(tx, ctx, user.id)),
      name: user.name,
      oldEmail: user.email,
      newEmail,
      at: now,
    });
    const notice = { kind: "address-changed" as const, to: user.email, toName: user.name, userId: user.id };
    await queueMail(tx, ctx.config.mail, { ...notice, ...composed }, now);
    return { user: { ...user, email: newEmail }, name: user.name, oldEmail: user.email, newEmail };
  });
}

/** The account a link belongs to, unless it was removed or disabled since. @throws ValidationError LINK_USED */
async function accountOf(tx: Tx, userId: number | null): Promise<User> {
  const user = await tx.users.findById(userId ?? 0);
  if (user === undefined || (await tx.users.isDisabled(user.id)))
    throw new ValidationError("LINK_USED", "This link has been used already; each link works once.");
  return user;
}

/** @throws TooManyRequestsError ADDRESS_CHANGE_THROTTLED */
async function countRequest(tx: Tx, userId: number, now: number): Promise<void> {
  const windowMs = ACCOUNT_MAIL_LIMITS.requestWindowMs;
  const count = await tx.loginFailures.count("address-change", String(userId), now, windowMs);
  if (count.failures > ACCOUNT_MAIL_LIMITS.addressChangesPerAccount) {
    const seconds = Math.max(1, Math.ceil((count.windowStart + windowMs - now) / 1000));
    throw new TooManyRequestsError(
      "ADDRESS_CHANGE_THROTTLED",
      `Too many address changes asked for; try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }
}
