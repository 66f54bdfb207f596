import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** Browsers trusted for sign-in (migration 0031): a device cookie's token hash and the accounts that signed in with it. */
export interface SignInDeviceRepo {
  /** Whether the token was used to sign in to the account (its e-mail address, lower-cased) since `since`. */
  trusts(tokenHash: string, email: string, since: number): Promise<boolean>;
  /**
   * A successful sign-in of `userId` from a browser: the accounts the old token (if any) vouched for
   * move to the new one, and `userId` is trusted with it as of `at`.
   */
  remember(userId: number, oldHash: string | undefined, newHash: string, at: number): Promise<void>;
  /** Forgets trust not used since `before`. */
  removeUnused(before: number): Promise<number>;
}

/** The trusted-browser queries over a connection or transaction. */
export function signInDeviceRepo(db: Kysely<Database>): SignInDeviceRepo {
  return {
    async trusts(tokenHash, email, since) {
      const row = await db
        .selectFrom("sign_in_devices as d")
        .innerJoin("users as u", "u.id", "d.user_id")
        .select("d.user_id")
        .where("d.token_hash", "=", tokenHash)
        .where("u.email", "=", email)
        .where("d.used_at", ">=", since)
        .executeTakeFirst();
      return row !== undefined;
    },
    async remember(userId, oldHash, newHash, at) {
      if (oldHash !== undefined)
        await db
          .updateTable("sign_in_devices")
          .set({ token_hash: newHash })
          .where("token_hash", "=", oldHash)
          .execute();
      await db
        .insertInto("sign_in_devices")
        .values({ token_hash: newHash, user_id: userId, used_at: at })
        .onConflict((oc) => oc.columns(["token_hash", "user_id"]).doUpdateSet({ used_at: at }))
        .execute();
    },
    async removeUnused(before) {
      const result = await db.deleteFrom("sign_in_devices").where("used_at", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
