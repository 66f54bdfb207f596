// What an operator does to one account from the command line (`kairan user ...`): a new
// password, a new name, disabling and enabling it, forgetting its failed sign-ins.
import { hashPassword } from "../../auth/password.js";
import { userTarget } from "../../domain/audit.js";
import { ValidationError } from "../../domain/errors.js";
import { type User, checkUserNames } from "../../domain/user.js";
import { requireUserByEmail } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { accountKey } from "../session/sign-in.js";
import { recordAudit } from "../audit/audit-log.js";
import { requireNotLastAdmin } from "../../domain/site-admin.js";
import { type Administrator, OPERATOR, type UserRef, refusalLogged, requireUserRef } from "./site-admin.js";

/** An account after an operator's change, and how many of its web sessions the change ended. */
export interface AccountChange {
  readonly user: User;
  readonly sessionsEnded: number;
}

/**
 * Sets the user's password and ends every web session they have (whoever held one must sign in
 * with the new password). Tokens stay: they were issued to applications, and revoking them is
 * `kairan token revoke`'s business.
 * @throws ValidationError PASSWORD_REQUIRED; NotFoundError USER_NOT_FOUND
 */
export async function setPassword(
  ctx: ServiceContext,
  { email, password }: { readonly email: string; readonly password: string },
): Promise<AccountChange> {
  if (password === "") throw new ValidationError("PASSWORD_REQUIRED", "The password is empty.");
  const passwordHash = await hashPassword(password);
  return ctx.store.transaction(async (tx) => {
    const user = await requireUserByEmail(tx, email);
    await tx.users.update(user.id, { passwordHash });
    return { user, sessionsEnded: await tx.sessions.removeOfUser(user.id) };
  });
}

/**
 * Renames the user (what every feed and page shows as author, assignee, member).
 * @throws ValidationError USER_NAME_REQUIRED, USER_NAME_TOO_LONG, USER_READING_TOO_LONG, USER_NAME_INVALID;
 *   NotFoundError USER_NOT_FOUND
 */
export async function renameUser(
  ctx: ServiceContext,
  {
    email,
    ...names
  }: { email: string; name?: string | undefined; familyKana?: string | undefined; givenKana?: string | undefined },
): Promise<User> {
  checkUserNames(names);
  return ctx.store.transaction(async (tx) => {
    const user = await requireUserByEmail(tx, email);
    const changes = {
      ...(names.name === undefined ? {} : { name: names.name }),
      ...(names.familyKana === undefined ? {} : { familyKana: names.familyKana }),
      ...(names.givenKana === undefined ? {} : { givenKana: names.givenKana }),
    };
    await tx.users.update(user.id, changes);
    return { ...user, ...changes };
  });
}

/**
 * Disables the account (`disabled` true) or enables it again. A disabled user's tokens and
 * sessions stop working with the next request: both lookups skip disabled accounts, and the
 * sessions are removed as well, so enabling the account does not bring them back. Its tokens
 * work again once it is enabled. Sign-in refuses a disabled account like a wrong password.
 * The last administrator who can sign in cannot be disabled. A change writes its audit row.
 * @throws NotFoundError USER_NOT_FOUND; ValidationError LAST_ADMIN; ForbiddenError ADMIN_REQUIRED
 */
export async function setUserDisabled(
  ctx: ServiceContext,
  input: UserRef & { readonly disabled: boolean },
  by: Administrator = OPERATOR,
): Promise<AccountChange & { readonly changed: boolean }> {
  const { disabled } = input;
  return refusalLogged(ctx, by, disabled ? "user.disable" : "user.enable", async (tx) => {
    const user = await requireUserRef(tx, input);
    const was = (await tx.users.isDisabled(user.id)) === true;
    if (disabled && !was) requireNotLastAdmin(await tx.users.listActiveAdminIds(), user.id);
    // Disabling twice keeps the first time.
    if (was !== disabled) {
      // Enabled by an operator, an imported placeholder is an ordinary account: nobody claims it any more.
      await tx.users.update(user.id, {
        disabledAt: disabled ? ctx.clock.now() : null,
        ...(disabled ? {} : { placeholderAt: null }),
      });
      if (!disabled) await tx.invitations.removeClaimsOf(user.id);
      await recordAudit(tx, ctx.clock, {
        action: disabled ? "user.disable" : "user.enable",
        actor: by.audit,
        target: userTarget(user),
      });
    }
    const sessionsEnded = disabled ? await tx.sessions.removeOfUser(user.id) : 0;
    return { user, sessionsEnded, changed: was !== disabled };
  });
}

/**
 * Forgets the account's failed sign-ins, so that its owner may try again at once (the address
 * counters stay: they belong to whoever sends from there). Kept to this one function so that the
 * sign-in throttle's storage can change under it.
 * @throws NotFoundError USER_NOT_FOUND
 */
export async function unlockUser(ctx: ServiceContext, email: string): Promise<User> {
  return ctx.store.transaction(async (tx) => {
    const user = await requireUserByEmail(tx, email);
    // Counters are keyed by the account as sign-in normalises it, from every address.
    await tx.loginFailures.clearAccount(accountKey(user.email));
    return user;
  });
}
