// Password sign-in with throttling (the web sign-in page, the authorize page and xAuth). Attempts
// are counted in the database before the password is checked, so the limits hold across every
// server process and under concurrent guessing: attempt N+1 is refused without spending the
// scrypt time on it. Guesses spread over many addresses meet a per-account budget shared by every
// client without the account's device cookie (OWASP's device cookies); a browser that signed in to
// the account before keeps its own allowance, so a stranger cannot lock its owner out.
import { verifyPassword } from "../../auth/password.js";
import { generateSecret, hashToken } from "../../auth/token.js";
import type { LoginThrottleConfig } from "../../config/limits.js";
import { type AuditActor, personActor, userTarget } from "../../domain/audit.js";
import { TooManyRequestsError } from "../../domain/errors.js";
import { hasControlCharacter, replaceControlCharacters } from "../../domain/text.js";
import { DEVICE_TRUST_MS } from "../../domain/session.js";
import type { User } from "../../domain/user.js";
import type { Store, Tx } from "../../store/store.js";
import { type LoginAttemptCount, pairSubject } from "../../store/queries/login-failures.js";
import { recordRefusal } from "../audit/audit-log.js";
import type { ServiceContext, SignInContext } from "../context.js";

/** Compared against when no user has the e-mail address, so both answers take the scrypt time. */
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/**
 * Where a password was typed, as the audit log names it: the sign-in page, the OAuth authorize
 * page, an application's xAuth request, or a form asking for the current password again.
 */
export type SignInVia = "web" | "oauth" | "xauth" | "password-check";

/** A sign-in attempt: what the person typed, and where it came from. */
export interface SignInAttempt {
  readonly email: string;
  readonly password: string;
  /** The client address (after trusted proxies). */
  readonly address: string;
  /** The device cookie the browser presented (the web's forms only: xAuth has none). */
  readonly device?: string | undefined;
  /** Where it was typed (the audit log's `via`); the sign-in page when not said. */
  readonly via?: SignInVia;
}

/** The per-account counter an attempt spends: its trusted browser's own, or the account's untrusted budget. */
interface AccountCounter {
  readonly scope: "device" | "untrusted";
  readonly subject: string;
}

/**
 * The user whose e-mail and password these are, or undefined. Refused outright while this address
 * backs off, or once this account has had too many failures from this address, or this address
 * too many on any accounts, or the account too many from clients without its device cookie (or
 * from this trusted browser), in the window. An account's failures from one address never refuse
 * its owner from another address with their trusted browser: a stranger cannot lock them out.
 * @throws TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function signInThrottled(ctx: SignInContext, attempt: SignInAttempt): Promise<User | undefined> {
  const { store } = ctx;
  const limits = ctx.config.limits.loginThrottle;
  const now = ctx.clock.now();
  const account = accountKey(attempt.email);
  const pair = pairSubject(account, attempt.address);
  const counts = await store.transaction(async (tx) => {
    await tx.loginFailures.removeExpired(now - limits.windowMs);
    const counter = await accountCounter(tx, account, attempt.device, now);
    return {
      pair: await tx.loginFailures.count("pair", pair, now, limits.windowMs),
      address: await tx.loginFailures.count("address", attempt.address, now, limits.windowMs),
      counter,
      account: await tx.loginFailures.count(counter.scope, counter.subject, now, limits.windowMs),
    };
  });
  try {
    refuseWhenThrottled(limits, counts, now);
  } catch (error) {
    await recordLockout(ctx, attempt, counts);
    throw error;
  }
  const { user, known, disabled } = await signIn(store, attempt.email, attempt.password);
  if (!user) await recordFailure(ctx, attempt, known, disabled);
  if (user) {
    await store.transaction(async (tx) => {
      await tx.loginFailures.forgive("pair", pair);
      await tx.loginFailures.forgive("address", attempt.address);
      await tx.loginFailures.forgive(counts.counter.scope, counts.counter.subject);
    });
  } else if (counts.address.failures >= limits.backoffAfter) {
    // Guesses racing from one address may all pass the back-off before one sets it; the counts
    // above, taken before the password is checked, still hold exactly.
    const waitMs = Math.min(
      limits.backoffMaxMs,
      limits.backoffBaseMs * 2 ** (counts.address.failures - limits.backoffAfter),
    );
    await store.transaction((tx) => tx.loginFailures.backOff(attempt.address, now + waitMs));
  }
  return user;
}

/**
 * After a successful sign-in from a browser: a new device token, trusted for this account and for
 * the accounts the presented one vouched for (which it replaces, so a token planted in a browser
 * stops working once its owner signs in); the device cookie's new value.
 */
export async function trustDevice(ctx: ServiceContext, userId: number, presented: string | undefined): Promise<string> {
  const token = generateSecret();
  const now = ctx.clock.now();
  await ctx.store.transaction(async (tx) => {
    await tx.signInDevices.removeUnused(now - DEVICE_TRUST_MS);
    const old = presented === undefined || presented === "" ? undefined : hashToken(presented);
    await tx.signInDevices.remember(userId, old, hashToken(token), now);
  });
  return token;
}

/** A valid device cookie of this account: its browser's own counter; anything else: the untrusted budget. */
async function accountCounter(
  tx: Tx,
  account: string,
  device: string | undefined,
  now: number,
): Promise<AccountCounter> {
  if (device !== undefined && device !== "") {
    const tokenHash = hashToken(device);
    if (await tx.signInDevices.trusts(tokenHash, account, now - DEVICE_TRUST_MS))
      return { scope: "device", subject: pairSubject(account, tokenHash) };
  }
  return { scope: "untrusted", subject: account };
}

/** The account as the counters key it: what was typed, trimmed and lower-cased. */
export function accountKey(email: string): string {
  // PostgreSQL cannot store a NUL; such an address names nobody, but its failures still count.
  return replaceControlCharacters(email.trim().toLowerCase());
}

/** Why a throttled attempt is refused, and until when. */
interface Refusal {
  readonly until: number;
  readonly reason: string;
}

const ACCOUNT_REASON: Readonly<Record<AccountCounter["scope"], string>> = {
  device: "for this account from this browser",
  untrusted: "for this account from browsers and applications that have not signed in to it before",
};

/** @throws TooManyRequestsError SIGN_IN_THROTTLED, naming the longest of the waits that apply */
function refuseWhenThrottled(
  limits: LoginThrottleConfig,
  counts: {
    readonly pair: LoginAttemptCount;
    readonly address: LoginAttemptCount;
    readonly counter: AccountCounter;
    readonly account: LoginAttemptCount;
  },
  now: number,
): void {
  const refusals: Refusal[] = [];
  const trusted = counts.counter.scope === "device";
  if (counts.account.failures > (trusted ? limits.perAccount : limits.untrustedPerAccount))
    refusals.push({
      until: counts.account.windowStart + limits.windowMs,
      reason: ACCOUNT_REASON[counts.counter.scope],
    });
  if (counts.pair.failures > limits.perAccount)
    refusals.push({ until: counts.pair.windowStart + limits.windowMs, reason: "for this account from this address" });
  if (counts.address.failures > limits.perAddress)
    refusals.push({ until: counts.address.windowStart + limits.windowMs, reason: "from this address" });
  if (counts.address.notBefore > now) refusals.push({ until: counts.address.notBefore, reason: "from this address" });
  if (refusals.length === 0) return;
  const longest = refusals.reduce((a, b) => (b.until > a.until ? b : a));
  const seconds = Math.max(1, Math.ceil((longest.until - now) / 1000));
  throw new TooManyRequestsError(
    "SIGN_IN_THROTTLED",
    `Too many failed sign-ins ${longest.reason}. Try again in ${waitText(seconds)}.`,
    seconds,
  );
}

function waitText(seconds: number): string {
  if (seconds === 1) return "1 second";
  return seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

/**
 * A failed sign-in's refused row: the account's person when the address has one, else the
 * address as typed (never the password).
 */
async function recordFailure(
  ctx: ServiceContext,
  attempt: SignInAttempt,
  known: User | undefined,
  disabled: boolean,
): Promise<void> {
  await recordRefusal(ctx, {
    action: "sign-in.failed",
    actor: attemptActor(attempt, known),
    ...(known === undefined ? {} : { target: userTarget(known) }),
    details: {
      via: attempt.via ?? "web",
      reason: known === undefined ? "unknown" : disabled ? "disabled" : "password",
    },
  });
}

/**
 * The row of the attempt that locked an account: written once per window, by the one attempt
 * whose count first went over the account's limit (the counts are taken atomically); the
 * attempts refused after it add nothing, so a flood of guesses cannot flood the log.
 */
async function recordLockout(
  ctx: SignInContext,
  attempt: SignInAttempt,
  counts: { readonly counter: AccountCounter; readonly account: LoginAttemptCount },
): Promise<void> {
  const limits = ctx.config.limits.loginThrottle;
  const limit = counts.counter.scope === "device" ? limits.perAccount : limits.untrustedPerAccount;
  if (counts.account.failures !== limit + 1) return;
  const known = hasControlCharacter(attempt.email)
    ? undefined
    : await ctx.store.read((tx) => tx.users.findByEmail(attempt.email.trim().toLowerCase()));
  await recordRefusal(ctx, {
    action: "sign-in.locked",
    actor: attemptActor(attempt, known),
    ...(known === undefined ? {} : { target: userTarget(known) }),
    details: {
      via: attempt.via ?? "web",
      scope: counts.counter.scope,
      until: counts.account.windowStart + limits.windowMs,
    },
  });
}

function attemptActor(attempt: SignInAttempt, known: User | undefined): AuditActor {
  return known === undefined
    ? { label: accountKey(attempt.email), address: attempt.address }
    : personActor(known, attempt.address);
}

/** What a password check found: the user when it matched, and the account the address names either way. */
interface SignInResult {
  readonly user: User | undefined;
  readonly known: User | undefined;
  readonly disabled: boolean;
}

/** The user whose e-mail and password these are, or undefined; takes the same time either way. */
async function signIn(store: Store, email: string, password: string): Promise<SignInResult> {
  const address = email.trim().toLowerCase();
  // No one's address has a control character (and PostgreSQL cannot compare a NUL): nobody's, then.
  const found = hasControlCharacter(address)
    ? undefined
    : await store.read((tx) => tx.users.findCredentialsByEmail(address));
  const matches = await verifyPassword(password, found?.passwordHash ?? DUMMY_HASH);
  // A disabled account is refused like a wrong password, after the same hashing time: whoever
  // tries learns nothing of which addresses have accounts, nor that a password was right.
  if (!found) return { user: undefined, known: undefined, disabled: false };
  const { passwordHash: _hash, disabled, ...user } = found;
  return { user: matches && !disabled ? user : undefined, known: user, disabled };
}
