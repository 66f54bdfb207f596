// A person's own two-factor sign-in: turning TOTP on (a pending secret, confirmed by a code from
// it, which also makes ten recovery codes), turning it off, new recovery codes, and the check of
// a second factor at sign-in (a TOTP code or a recovery code), throttled per account. Each change
// writes its audit row in its own transaction.
import { type AuditActor, personActor, personLabel } from "../../domain/audit.js";
import type { Actor } from "../../domain/access.js";
import { ConflictError, ForbiddenError, TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { SECOND_FACTOR_FAILURES_MAX, SECOND_FACTOR_WINDOW_MS } from "../../domain/two-factor.js";
import type { User } from "../../domain/user.js";
import { recordAudit } from "../audit/audit-log.js";
import type { SignInContext } from "../context.js";
import { signInThrottled } from "../session/sign-in.js";
import { type SettingsContext, readSiteSettings } from "../settings/site-settings.js";
import { replaceRecoveryCodes, spendRecoveryCode } from "./recovery-codes.js";
import { twoFactorStatus } from "./status.js";
import { type TotpEnrolment, enrolmentOf, matchingStep, newSealedSecret, openSecret } from "./totp.js";

/** What the two-factor services need: the store, the settings' defaults and the sign-in limits. */
export type TwoFactorContext = SettingsContext & SignInContext;

/** Where a person's request came from (the audit row's address, the password throttle's counters). */
export interface Origin {
  readonly address: string;
  readonly device?: string | undefined;
}

const self = (actor: Actor, origin: Origin): AuditActor => personActor(actor.user, origin.address);
/** A person as the two-factor services name them. */
type Person = Pick<User, "id" | "name" | "email">;

const target = (user: Person) => ({ kind: "user" as const, id: String(user.id), label: personLabel(user) });

/**
 * Starts (or starts again) turning TOTP on: a new secret, kept pending until a code from it is
 * confirmed. Returns what the app is shown.
 * @throws ConflictError TWO_FACTOR_ALREADY_ON
 */
export async function startTotpEnrolment(ctx: TwoFactorContext, actor: Actor): Promise<TotpEnrolment> {
  const userId = actor.user.id;
  const sealed = await ctx.store.transaction(async (tx) => {
    const current = await tx.twoFactor.findTotp(userId);
    if (current?.confirmedAt != null) throw alreadyOn();
    const fresh = await newSealedSecret(ctx, tx, userId);
    await tx.twoFactor.putPendingTotp(userId, fresh, ctx.clock.now());
    return fresh;
  });
  return enrolmentOf(await openSecret(ctx, userId, sealed), actor.user.email, (await readSiteSettings(ctx)).siteName);
}

/** The enrolment waiting for its first code, if any (shown again until confirmed, never after). */
export async function pendingTotpEnrolment(ctx: TwoFactorContext, actor: Actor): Promise<TotpEnrolment | undefined> {
  const row = await ctx.store.read((tx) => tx.twoFactor.findTotp(actor.user.id));
  if (!row || row.confirmedAt !== null) return undefined;
  const secret = await openSecret(ctx, actor.user.id, row.sealed);
  return enrolmentOf(secret, actor.user.email, (await readSiteSettings(ctx)).siteName);
}

/**
 * Turns TOTP on with a code from the pending secret; returns the ten new recovery codes (shown
 * once). Wrong codes count like wrong second factors at sign-in.
 * @throws ConflictError TWO_FACTOR_ALREADY_ON, TWO_FACTOR_NOT_STARTED; ValidationError TWO_FACTOR_CODE_WRONG;
 *   TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function confirmTotpEnrolment(
  ctx: TwoFactorContext,
  actor: Actor,
  input: { code: string } & Origin,
): Promise<string[]> {
  const userId = actor.user.id;
  const row = await ctx.store.read((tx) => tx.twoFactor.findTotp(userId));
  if (row?.confirmedAt != null) throw alreadyOn();
  if (!row) throw new ConflictError("TWO_FACTOR_NOT_STARTED", "Start setting up the authenticator app first.");
  await countAttempt(ctx, userId);
  const step = matchingStep(await openSecret(ctx, userId, row.sealed), input.code, ctx.clock);
  if (step === undefined) throw codeWrong();
  const codes = await ctx.store.transaction(async (tx) => {
    const now = ctx.clock.now();
    if (!(await tx.twoFactor.confirmTotp(userId, now, step))) throw alreadyOn();
    await recordAudit(tx, ctx.clock, {
      action: "two-factor.enable",
      actor: self(actor, input),
      target: target(actor.user),
      details: { method: "totp" },
    });
    return replaceRecoveryCodes(tx, userId, now);
  });
  await forgive(ctx, userId);
  return codes;
}

/**
 * Turns two-factor sign-in off (the secret and the recovery codes go), proven by a code or the
 * password. Refused while the site or an administrator requires it.
 * @throws ConflictError TWO_FACTOR_OFF; ForbiddenError TWO_FACTOR_REQUIRED; ValidationError TWO_FACTOR_PROOF_WRONG;
 *   TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function disableTwoFactor(
  ctx: TwoFactorContext,
  actor: Actor,
  input: { proof: string } & Origin,
): Promise<void> {
  const userId = actor.user.id;
  const status = await twoFactorStatus(ctx, userId);
  if (!status.totpOn) throw isOff();
  // A passkey left is a second factor still: the requirement holds without the app.
  if (status.required && status.passkeys === 0)
    throw new ForbiddenError(
      "TWO_FACTOR_REQUIRED",
      "Two-factor sign-in is required for your account on this site: it cannot be turned off.",
    );
  await proveIdentity(ctx, actor, input);
  await ctx.store.transaction(async (tx) => {
    await tx.twoFactor.removeTotp(userId);
    await tx.twoFactor.removeRecoveryCodes(userId);
    await recordAudit(tx, ctx.clock, {
      action: "two-factor.disable",
      actor: self(actor, input),
      target: target(actor.user),
    });
  });
}

/**
 * Ten new recovery codes in place of the old ones (which stop working), proven by a code or the password.
 * @throws ConflictError TWO_FACTOR_OFF; ValidationError TWO_FACTOR_PROOF_WRONG; TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function regenerateRecoveryCodes(
  ctx: TwoFactorContext,
  actor: Actor,
  input: { proof: string } & Origin,
): Promise<string[]> {
  const userId = actor.user.id;
  if (!(await twoFactorStatus(ctx, userId)).totpOn) throw isOff();
  await proveIdentity(ctx, actor, input);
  return ctx.store.transaction(async (tx) => {
    await recordAudit(tx, ctx.clock, {
      action: "two-factor.recovery-code",
      actor: self(actor, input),
      target: target(actor.user),
      details: { regenerated: true },
    });
    return replaceRecoveryCodes(tx, userId, ctx.clock.now());
  });
}

/** How a second factor was proven. */
export type SecondFactorMethod = "totp" | "recovery-code" | "passkey";

/**
 * Checks the second factor typed at sign-in: a TOTP code (of a step later than the last one
 * used: a code is accepted once) or an unused recovery code (then spent, with an audit row).
 * At most SECOND_FACTOR_FAILURES_MAX wrong codes per account in 15 minutes.
 * @throws ValidationError TWO_FACTOR_CODE_WRONG; TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function checkSecondFactor(
  ctx: TwoFactorContext,
  user: Person,
  input: { code: string } & Origin,
): Promise<SecondFactorMethod> {
  await countAttempt(ctx, user.id);
  const method = await matchSecondFactor(ctx, user, input);
  if (method === undefined) throw codeWrong();
  await forgive(ctx, user.id);
  return method;
}

async function matchSecondFactor(
  ctx: TwoFactorContext,
  user: Person,
  input: { code: string } & Origin,
): Promise<SecondFactorMethod | undefined> {
  const row = await ctx.store.read((tx) => tx.twoFactor.findTotp(user.id));
  if (row?.confirmedAt == null) return undefined;
  const step = matchingStep(await openSecret(ctx, user.id, row.sealed), input.code, ctx.clock);
  if (step !== undefined) {
    const fresh = await ctx.store.transaction((tx) => tx.twoFactor.useTotpStep(user.id, step));
    return fresh ? "totp" : undefined;
  }
  return ctx.store.transaction(async (tx) => {
    const left = await spendRecoveryCode(tx, user.id, input.code, ctx.clock.now());
    if (left === undefined) return undefined;
    await recordAudit(tx, ctx.clock, {
      action: "two-factor.recovery-code",
      actor: personActor(user, input.address),
      target: target(user),
      details: { used: true, left },
    });
    return "recovery-code" as const;
  });
}

/** A code (TOTP or recovery) or the password. @throws ValidationError TWO_FACTOR_PROOF_WRONG */
export async function proveIdentity(
  ctx: TwoFactorContext,
  actor: Actor,
  input: { proof: string } & Origin,
): Promise<void> {
  await countAttempt(ctx, actor.user.id);
  if ((await matchSecondFactor(ctx, actor.user, { ...input, code: input.proof })) !== undefined) {
    await forgive(ctx, actor.user.id);
    return;
  }
  const attempt = { email: actor.user.email, password: input.proof, address: input.address, device: input.device };
  if (await signInThrottled(ctx, attempt)) return;
  throw new ValidationError("TWO_FACTOR_PROOF_WRONG", "Neither a current code nor your password: nothing changed.");
}

/** Counts a second-factor attempt of the account. @throws TooManyRequestsError SIGN_IN_THROTTLED past the limit */
async function countAttempt(ctx: TwoFactorContext, userId: number): Promise<void> {
  const now = ctx.clock.now();
  const count = await ctx.store.transaction(async (tx) => {
    // Counters of windows long over go, as the password's do at each attempt.
    await tx.loginFailures.removeExpired(now - SECOND_FACTOR_WINDOW_MS, ["second-factor"]);
    return tx.loginFailures.count("second-factor", String(userId), now, SECOND_FACTOR_WINDOW_MS);
  });
  if (count.failures <= SECOND_FACTOR_FAILURES_MAX) return;
  const seconds = Math.max(1, Math.ceil((count.windowStart + SECOND_FACTOR_WINDOW_MS - now) / 1000));
  throw new TooManyRequestsError(
    "SIGN_IN_THROTTLED",
    `Too many wrong codes for this account. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    seconds,
  );
}

async function forgive(ctx: TwoFactorContext, userId: number): Promise<void> {
  await ctx.store.transaction((tx) => tx.loginFailures.forgive("second-factor", String(userId)));
}

function codeWrong(): ValidationError {
  return new ValidationError("TWO_FACTOR_CODE_WRONG", "The code is wrong, expired or already used.");
}

function alreadyOn(): ConflictError {
  return new ConflictError("TWO_FACTOR_ALREADY_ON", "Two-factor sign-in is already on.");
}

function isOff(): ConflictError {
  return new ConflictError("TWO_FACTOR_OFF", "Two-factor sign-in is not on.");
}
