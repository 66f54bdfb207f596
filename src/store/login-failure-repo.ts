// The store's sign-in throttling repository (part of Tx, store.ts).

/** Where one sign-in counter stands after an attempt was counted. */
export interface LoginAttemptCount {
  /** Attempts in the window not followed by a success, this one included. */
  readonly failures: number;
  readonly windowStart: number;
}

/** Sign-in attempts per account or address, in fixed windows; shared by every server process. */
export interface LoginFailureRepo {
  /** Counts an attempt (a new window when the last one is over) and returns the counter, atomically. */
  count(scope: "account" | "address", subject: string, now: number, windowMs: number): Promise<LoginAttemptCount>;
  /** A successful sign-in: the account's counter is cleared, the address's loses this attempt. */
  forgive(scope: "account" | "address", subject: string): Promise<void>;
  /** Deletes counters whose window started before `before`. */
  removeExpired(before: number): Promise<number>;
}
