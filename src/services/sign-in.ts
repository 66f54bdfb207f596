// Password sign-in with throttling (the authorize page and xAuth). Attempts are counted in the
// database before the password is checked, so the limits hold across every server process and
// under concurrent guessing: attempt N+1 is refused without spending the scrypt time on it.
import { verifyPassword } from "../auth/password.js";
import type { Clock } from "../clock.js";
import type { LoginThrottleConfig } from "../config/limits.js";
import { TooManyRequestsError } from "../domain/errors.js";
import { hasControlCharacter, replaceControlCharacters } from "../domain/text.js";
import type { User } from "../domain/user.js";
import type { LoginAttemptCount, Store } from "../store/store.js";

/** Compared against when no user has the e-mail address, so both answers take the scrypt time. */
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

/** A sign-in attempt: what the person typed, and where it came from. */
export interface SignInAttempt {
  readonly email: string;
  readonly password: string;
  /** The client address (after trusted proxies). */
  readonly address: string;
}

/**
 * The user whose e-mail and password these are, or undefined; refused outright once the account
 * or the address has had too many failed attempts in the window.
 * @throws TooManyRequestsError SIGN_IN_THROTTLED
 */
export async function signInThrottled(
  store: Store,
  clock: Clock,
  limits: LoginThrottleConfig,
  attempt: SignInAttempt,
): Promise<User | undefined> {
  const now = clock.now();
  // PostgreSQL cannot store a NUL; such an address names nobody, but its failures still count.
  const account = replaceControlCharacters(attempt.email.trim().toLowerCase());
  const counts = await store.transaction(async (tx) => {
    await tx.loginFailures.removeExpired(now - limits.windowMs);
    return {
      account: await tx.loginFailures.count("account", account, now, limits.windowMs),
      address: await tx.loginFailures.count("address", attempt.address, now, limits.windowMs),
    };
  });
  const over = [
    counts.account.failures > limits.perAccount ? counts.account : undefined,
    counts.address.failures > limits.perAddress ? counts.address : undefined,
  ];
  const blocking = over.filter((count): count is LoginAttemptCount => count !== undefined);
  if (blocking.length > 0) {
    const until = Math.max(...blocking.map((count) => count.windowStart + limits.windowMs));
    const seconds = Math.max(1, Math.ceil((until - now) / 1000));
    throw new TooManyRequestsError(
      "SIGN_IN_THROTTLED",
      `Too many failed sign-ins for this account or from this address. Try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }
  const user = await signIn(store, attempt.email, attempt.password);
  if (user) {
    await store.transaction(async (tx) => {
      await tx.loginFailures.forgive("account", account);
      await tx.loginFailures.forgive("address", attempt.address);
    });
  }
  return user;
}

/** The user whose e-mail and password these are, or undefined; takes the same time either way. */
async function signIn(store: Store, email: string, password: string): Promise<User | undefined> {
  const address = email.trim().toLowerCase();
  // No one's address has a control character (and PostgreSQL cannot compare a NUL): nobody's, then.
  const found = hasControlCharacter(address)
    ? undefined
    : await store.read((tx) => tx.users.findCredentialsByEmail(address));
  const matches = await verifyPassword(password, found?.passwordHash ?? DUMMY_HASH);
  // A disabled account is refused like a wrong password, after the same hashing time: whoever
  // tries learns nothing of which addresses have accounts, nor that a password was right.
  if (!found || !matches || found.disabled) return undefined;
  const { passwordHash: _hash, disabled: _disabled, ...user } = found;
  return user;
}
