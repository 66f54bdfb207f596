// Whether an account has a second factor and whether it must have one: the site's policy (read
// afresh) and an administrator's mark; and the one writer of that mark.
import { type AuditActor, userTarget } from "../../domain/audit.js";
import { NotFoundError } from "../../domain/errors.js";
import type { SiteSettings } from "../../domain/site-settings.js";
import { secondFactorRequired } from "../../domain/two-factor.js";
import { recordAudit } from "../audit/audit-log.js";
import type { ServiceContext } from "../context.js";
import { type SettingsContext, readSiteSettings } from "../settings/site-settings.js";

/** An account's second factors and what the site asks of it. */
export interface TwoFactorStatus {
  readonly totpOn: boolean;
  readonly recoveryCodesLeft: number;
  /** The account's passkeys: each is a second factor (and signs in alone). */
  readonly passkeys: number;
  /** The policy or an administrator requires a second factor of this account. */
  readonly required: boolean;
  /** An administrator set the requirement on this account (the policy aside). */
  readonly requiredByAdmin: boolean;
  /** Required and without one: the person can do nothing but set one up. */
  readonly mustEnrol: boolean;
  /** The account signs in with a second step after the password. */
  readonly hasSecondFactor: boolean;
}

/**
 * The account's second factors and requirement, read afresh (two small queries; one when the
 * caller has read the site's settings for this request already and passes them as `site`).
 */
export async function twoFactorStatus(
  ctx: SettingsContext,
  userId: number,
  site?: Pick<SiteSettings, "twoFactorPolicy">,
): Promise<TwoFactorStatus> {
  const state = await ctx.store.read((tx) => tx.twoFactor.state(userId));
  const { twoFactorPolicy } = site ?? (await readSiteSettings(ctx));
  const required = secondFactorRequired({ policy: twoFactorPolicy, ...state });
  return {
    totpOn: state.totpOn,
    recoveryCodesLeft: state.recoveryCodesLeft,
    passkeys: state.passkeys,
    required,
    requiredByAdmin: state.requiredByAdmin,
    mustEnrol: required && !state.totpOn && state.passkeys === 0,
    hasSecondFactor: state.totpOn || state.passkeys > 0,
  };
}

/**
 * Sets or clears an administrator's requirement of a second factor on one account, with a
 * `user.update` audit row naming the change (none when nothing changed). The command line's
 * `kairan user require-two-factor` and the admin pages call it.
 * @throws NotFoundError USER_NOT_FOUND
 * @returns whether anything changed
 */
export async function setTwoFactorRequired(
  ctx: ServiceContext,
  actor: AuditActor,
  userId: number,
  required: boolean,
): Promise<boolean> {
  return ctx.store.transaction(async (tx) => {
    const user = await tx.users.findById(userId);
    if (!user) throw new NotFoundError("USER_NOT_FOUND", "There is no such user.");
    const changed = await tx.twoFactor.setRequired(userId, required, ctx.clock.now(), actor.userId ?? null);
    if (changed)
      await recordAudit(tx, ctx.clock, {
        action: "user.update",
        actor,
        target: userTarget(user),
        details: { twoFactorRequired: { before: !required, after: required } },
      });
    return changed;
  });
}
