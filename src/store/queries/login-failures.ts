import { type Kysely, sql } from "kysely";
import type { Database } from "../schema.js";

/**
 * What a counter holds: `pair` is one account (as typed) from one address, `address` an address on
 * any accounts, `untrusted` one account from every client without its device cookie, `device` one
 * account from one trusted browser (the account, a line feed, the device token's hash).
 */
export type SignInScope = "pair" | "address" | "untrusted" | "device";

/** The sign-in counters' scopes: the sign-in sweep removes only these (others keep longer windows). */
export const SIGN_IN_SCOPES: readonly SignInScope[] = ["pair", "address", "untrusted", "device"];

/**
 * Counters of mail sent on request (migration 0033 reuses this table), each in windows of an hour:
 * `reset-address` password-reset requests per typed address, `reset-account` per account (user id),
 * `reset-client` per client address; `address-change` address-change requests per account;
 * `invite-sender` invitation messages per manager (user id).
 */
export type MailRequestScope = "reset-address" | "reset-account" | "reset-client" | "address-change" | "invite-sender";

/** Wrong second-factor codes per account (user id), in windows of 15 minutes (migration 0038's sign-in step). */
export type SecondFactorScope = "second-factor";

/** Every scope a counter of this table has. */
export type LoginFailureScope = SignInScope | MailRequestScope | SecondFactorScope;

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
  /** A successful sign-in: a pair's or device's counter is cleared, an address's or untrusted one loses this attempt. */
  forgive(scope: LoginFailureScope, subject: string): Promise<void>;
  /** Refuses the address's attempts before `notBefore` (never moves an earlier back-off's end closer). */
  backOff(address: string, notBefore: number): Promise<void>;
  /**
   * Forgets every failure of the account (the e-mail address as sign-in keys it: trimmed,
   * lower-cased) from every address and browser, trusted or not: an operator unlocking it.
   * Returns the counters removed.
   */
  clearAccount(account: string): Promise<number>;
  /** Deletes counters of these scopes (the sign-in ones unless given) whose window started before `before`. */
  removeExpired(before: number, scopes?: readonly LoginFailureScope[]): Promise<number>;
}

/**
 * The subject of a `pair` counter: the account, a line feed, the address. Neither part can hold a
 * line feed (sign-in replaces control characters in the account; addresses have none), so the
 * account's counters from every address are the subjects that start with `account\n`.
 */
export function pairSubject(account: string, address: string): string {
  return `${account}\n${address}`;
}

/** Sign-in counters: one upsert per attempt, so concurrent processes never lose a count. */
export function loginFailureRepo(db: Kysely<Database>): LoginFailureRepo {
  return {
    async count(scope, subject, now, windowMs) {
      const expired = sql<boolean>`login_failures.window_start <= ${now - windowMs}`;
      const row = await db
        .insertInto("login_failures")
        .values({ scope, subject, failures: 1, window_start: now })
        .onConflict((conflict) =>
          conflict.columns(["scope", "subject"]).doUpdateSet({
            // Both expressions read the row as it was before this update (SQL semantics on both engines).
            failures: sql<number>`case when ${expired} then 1 else login_failures.failures + 1 end`,
            window_start: sql<number>`case when ${expired} then ${now} else login_failures.window_start end`,
          }),
        )
        .returning(["failures", "window_start", "not_before"])
        .executeTakeFirstOrThrow();
      return {
        failures: Number(row.failures),
        windowStart: Number(row.window_start),
        notBefore: Number(row.not_before),
      };
    },
    async forgive(scope, subject) {
      if (scope === "pair" || scope === "device" || scope === "second-factor") {
        await db.deleteFrom("login_failures").where("scope", "=", scope).where("subject", "=", subject).execute();
        return;
      }
      await db
        .updateTable("login_failures")
        .set({ failures: sql<number>`failures - 1` })
        .where("scope", "=", scope)
        .where("subject", "=", subject)
        .where("failures", ">", 0)
        .execute();
    },
    async backOff(address, notBefore) {
      await db
        .updateTable("login_failures")
        .set({ not_before: notBefore })
        .where("scope", "=", "address")
        .where("subject", "=", address)
        .where("not_before", "<", notBefore)
        .execute();
    },
    async clearAccount(account) {
      const prefix = pairSubject(account, "");
      // substr and length count characters on both engines; a JavaScript string's length counts UTF-16 units.
      const result = await db
        .deleteFrom("login_failures")
        .where((eb) =>
          eb.or([
            eb.and([
              eb("scope", "in", ["pair", "device"]),
              eb(sql<string>`substr(subject, 1, ${[...prefix].length})`, "=", prefix),
            ]),
            eb.and([eb("scope", "=", "untrusted"), eb("subject", "=", account)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeExpired(before, scopes = SIGN_IN_SCOPES) {
      const result = await db
        .deleteFrom("login_failures")
        .where("window_start", "<", before)
        .where("scope", "in", scopes)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
