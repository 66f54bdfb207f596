import { type Kysely, sql } from "kysely";
import { pairSubject } from "../login-failure-repo.js";
import type { Database } from "../schema.js";
import type { LoginFailureRepo } from "../store.js";

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
      if (scope === "pair") {
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
        .where("scope", "=", "pair")
        .where(sql<string>`substr(subject, 1, ${[...prefix].length})`, "=", prefix)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeExpired(before) {
      const result = await db.deleteFrom("login_failures").where("window_start", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
