// Signing in in two steps. After the password, an account with a second factor gets no session but
// a signed "second step" token (a cookie on the sign-in page, a form field on the OAuth authorize
// page) that names the account for 10 minutes; the session, or the application's approval, comes
// only with the second factor. Nothing is stored per step: the site key and the expiry bound it,
// and the per-account count of wrong codes bounds guessing.
import { signToken, verifyToken } from "../../auth/signed-token.js";
import type { AuditEntry } from "../../domain/audit.js";
import { SECOND_STEP_MS } from "../../domain/two-factor.js";
import type { User } from "../../domain/user.js";
import { type StartedSession, openSession, signInEntry } from "../session/session.js";
import { type SignInAttempt, signInThrottled, trustDevice } from "../session/sign-in.js";
import { siteKey } from "../site-key.js";
import { twoFactorStatus } from "./status.js";
import { type PasskeyContext, checkPasskeySecondFactor } from "./passkeys.js";
import { type Origin, type SecondFactorMethod, type TwoFactorContext, checkSecondFactor } from "./two-factor.js";

/** Where a second step leads: a web session, or an application's approval on the authorize page. */
export type SecondStepPurpose = "sign-in" | "oauth";

/** The outcome of a right password: a session at once, or a second step to take first. */
export type PasswordOutcome =
  | { readonly kind: "session"; readonly started: StartedSession; readonly device: string }
  | { readonly kind: "second-step"; readonly pending: string; readonly device: string };

/**
 * The sign-in page's password step (throttled like every password check): undefined when the
 * e-mail address or password is wrong; a session for an account without a second factor (one
 * that must set one up meets the enrolment page, web/page.ts); otherwise a pending second step.
 * @throws TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function signInWithPassword(
  ctx: TwoFactorContext,
  attempt: SignInAttempt,
): Promise<PasswordOutcome | undefined> {
  const user = await signInThrottled(ctx, attempt);
  if (!user) return undefined;
  const device = await trustDevice(ctx, user.id, attempt.device);
  const audit = signInEntry(user, attempt.address, { via: attempt.via ?? "web" });
  return { ...(await continueSignIn(ctx, user, audit)), device };
}

/**
 * Signs in a person whose password is proven (typed, or just set through a reset link): a session
 * at once without a second factor, else a pending second step. A password reset by mail must not
 * pass the second factor by.
 */
export async function continueSignIn(
  ctx: TwoFactorContext,
  user: User,
  audit?: AuditEntry,
): Promise<
  | { readonly kind: "session"; readonly started: StartedSession }
  | { readonly kind: "second-step"; readonly pending: string }
> {
  if ((await twoFactorStatus(ctx, user.id)).hasSecondFactor)
    return { kind: "second-step", pending: await issueSecondStep(ctx, "sign-in", user.id, "") };
  return { kind: "session", started: await openSession(ctx, user, audit) };
}

/** A second step's token for `purpose`, bound to `binding` (the OAuth request it approves; "" for sign-in). */
export async function issueSecondStep(
  ctx: TwoFactorContext,
  purpose: SecondStepPurpose,
  userId: number,
  binding: string,
): Promise<string> {
  const key = await siteKey(ctx, "second-factor");
  return signToken(key, `second-step:${purpose}`, [String(userId), binding], ctx.clock.now() + SECOND_STEP_MS);
}

/** The account a live second-step token names (not disabled since), or undefined. */
export async function pendingUser(
  ctx: TwoFactorContext,
  purpose: SecondStepPurpose,
  token: string | undefined,
  binding: string,
): Promise<User | undefined> {
  if (token === undefined || token === "") return undefined;
  const claims = verifyToken(await siteKey(ctx, "second-factor"), `second-step:${purpose}`, token, ctx.clock.now());
  if (claims?.length !== 2 || claims[1] !== binding || !/^[0-9]{1,15}$/.test(claims[0] ?? "")) return undefined;
  const userId = Number(claims[0]);
  return ctx.store.read(async (tx) =>
    (await tx.users.isDisabled(userId)) === false ? tx.users.findById(userId) : undefined,
  );
}

/**
 * The second step of a sign-in: the code proves the factor, then the session opens.
 * @throws ValidationError TWO_FACTOR_CODE_WRONG; TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function completeSignIn(
  ctx: TwoFactorContext,
  user: User,
  input: { code: string } & Origin,
): Promise<{ started: StartedSession; method: SecondFactorMethod }> {
  const method = await checkSecondFactor(ctx, user, input);
  const audit = signInEntry(user, input.address, { via: "web", secondFactor: method });
  return { started: await openSession(ctx, user, audit), method };
}

/**
 * The second step of a sign-in taken with one of the account's passkeys (`binding` ties its
 * challenge to this second step), then the session opens.
 * @throws ValidationError PASSKEY_CHALLENGE_INVALID, PASSKEY_REJECTED
 */
export async function completeSignInWithPasskey(
  ctx: PasskeyContext,
  user: User,
  input: { response: string; binding: string } & Origin,
): Promise<{ started: StartedSession; method: SecondFactorMethod }> {
  await checkPasskeySecondFactor(ctx, user, input);
  const audit = signInEntry(user, input.address, { via: "web", secondFactor: "passkey" });
  return { started: await openSession(ctx, user, audit), method: "passkey" };
}
