// The store's sign-in throttling repository (part of Tx, store.ts).

/** What a counter holds: `pair` is one account (as typed) from one address, `address` an address on any accounts. */
export type LoginFailureScope = "pair" | "address";

/** Where one sign-in counter stands after an attempt was counted. */
export interface LoginAttemptCount {
  /** Attempts in the window not followed by a success, this one included. */
  readonly failures: number;
  readonly windowStart: number;
  /** Attempts before this time are refused (an address's back-off); 0 when none. */
  readonly notBefore: number;
}

/** Sign-in attempts per account and address and per address, in fixed windows; shared by every server process. */
export interface LoginFailureRepo {
  /** Counts an attempt (a new window when the last one is over) and returns the counter, atomically. */
  count(scope: LoginFailureScope, subject: string, now: number, windowMs: number): Promise<LoginAttemptCount>;
  /** A successful sign-in: the pair's counter is cleared, the address's loses this attempt. */
  forgive(scope: LoginFailureScope, subject: string): Promise<void>;
  /** Refuses the address's attempts before `notBefore` (never moves an earlier back-off's end closer). */
  backOff(address: string, notBefore: number): Promise<void>;
  /**
   * Forgets every failure of the account (the e-mail address as sign-in keys it: trimmed,
   * lower-cased) from every address: an operator unlocking it. Returns the counters removed.
   */
  clearAccount(account: string): Promise<number>;
  /** Deletes counters whose window started before `before`. */
  removeExpired(before: number): Promise<number>;
}

/**
 * The subject of a `pair` counter: the account, a line feed, the address. Neither part can hold a
 * line feed (sign-in replaces control characters in the account; addresses have none), so the
 * account's counters from every address are the subjects that start with `account\n`.
 */
export function pairSubject(account: string, address: string): string {
  return `${account}\n${address}`;
}
