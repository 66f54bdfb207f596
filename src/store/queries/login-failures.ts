import { type Kysely, sql } from "kysely";
import type { Database } from "../schema.js";

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
        .returning(["failures", "window_start"])
        .executeTakeFirstOrThrow();
      return { failures: Number(row.failures), windowStart: Number(row.window_start) };
    },
    async forgive(scope, subject) {
      if (scope === "account") {
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
    async removeExpired(before) {
      const result = await db.deleteFrom("login_failures").where("window_start", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
