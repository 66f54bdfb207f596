// `kairan user require-two-factor EMAIL --on|--off` and `kairan user remove-two-factor EMAIL`: the
// command line's thin adapters, naming the person by address and acting as the command line in
// the audit log.
import { COMMAND_LINE_ACTOR, personLabel } from "../../domain/audit.js";
import type { User } from "../../domain/user.js";
import { requireUserByEmail } from "../admin-lookup.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { setTwoFactorRequired } from "./status.js";

/**
 * Requires (or stops requiring) a second factor of the account with this address.
 * @throws NotFoundError USER_NOT_FOUND
 */
export async function requireTwoFactorAsOperator(
  ctx: ServiceContext,
  input: { readonly email: string; readonly required: boolean },
): Promise<{ user: User; changed: boolean; totpOn: boolean }> {
  const user = await ctx.store.read((tx) => requireUserByEmail(tx, input.email));
  const changed = await setTwoFactorRequired(ctx, COMMAND_LINE_ACTOR, user.id, input.required);
  const { totpOn } = await ctx.store.read((tx) => tx.twoFactor.state(user.id));
  return { user, changed, totpOn };
}

/**
 * Turns two-factor sign-in off for the account with this address (a person who lost both their
 * phone and their recovery codes): the secret, the codes and every passkey go, with a
 * `two-factor.disable` audit row naming the command line (and how many passkeys went). A requirement stays: the person sets it up again after the password.
 * @throws NotFoundError USER_NOT_FOUND
 */
export async function removeTwoFactorAsOperator(
  ctx: ServiceContext,
  email: string,
): Promise<{ user: User; changed: boolean }> {
  return ctx.store.transaction(async (tx) => {
    const user = await requireUserByEmail(tx, email);
    const removed = (await tx.twoFactor.removeTotp(user.id)) + (await tx.twoFactor.removeRecoveryCodes(user.id));
    const passkeys = await tx.passkeys.removeAllOf(user.id);
    if (removed + passkeys > 0)
      await recordAudit(tx, ctx.clock, {
        action: "two-factor.disable",
        actor: COMMAND_LINE_ACTOR,
        target: { kind: "user", id: String(user.id), label: personLabel(user) },
        ...(passkeys > 0 ? { details: { passkeysRemoved: passkeys } } : {}),
      });
    return { user, changed: removed + passkeys > 0 };
  });
}
