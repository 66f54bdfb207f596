import type { Kysely } from "kysely";
import type { AccountTokensTable, Database } from "../schema.js";

/** What a one-time link of an account is for (migration 0033). */
export type AccountTokenPurpose = AccountTokensTable["purpose"];

/** A one-time link as stored: never the link's secret, only its SHA-256. */
export interface AccountTokenRow {
  readonly id: number;
  readonly purpose: AccountTokenPurpose;
  readonly userId: number | null;
  /** The new address of an address change. */
  readonly email: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
}

/** One-time links of accounts: password resets, address changes, the first run's setup. */
export interface AccountTokenRepo {
  insert(token: {
    purpose: AccountTokenPurpose;
    tokenHash: string;
    userId: number | null;
    email: string | null;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The link of this purpose whose secret has this hash, used or not, expired or not. */
  find(purpose: AccountTokenPurpose, tokenHash: string): Promise<AccountTokenRow | undefined>;
  /**
   * Marks the link used, if it still is unused and unexpired at `at`: false when another request
   * took it first (the single use holds between processes: one conditional update).
   */
  use(id: number, at: number): Promise<boolean>;
  /** Removes the user's links of this purpose but one (the one just followed); returns how many. */
  removeOthersOfUser(userId: number, purpose: AccountTokenPurpose, keepId: number): Promise<number>;
  /** Removes every link of this purpose (the setup links, once the first account exists). */
  removePurpose(purpose: AccountTokenPurpose): Promise<number>;
  /** Removes links that expired before `before`; returns how many. */
  removeExpired(before: number): Promise<number>;
}

/** The account link queries over a connection or transaction. */
export function accountTokenRepo(db: Kysely<Database>): AccountTokenRepo {
  return {
    async insert(token) {
      await db
        .insertInto("account_tokens")
        .values({
          purpose: token.purpose,
          token_hash: token.tokenHash,
          user_id: token.userId,
          email: token.email,
          created_at: token.createdAt,
          expires_at: token.expiresAt,
          used_at: null,
        })
        .execute();
    },
    async find(purpose, tokenHash) {
      const row = await db
        .selectFrom("account_tokens")
        .selectAll()
        .where("purpose", "=", purpose)
        .where("token_hash", "=", tokenHash)
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          purpose: row.purpose,
          userId: row.user_id,
          email: row.email,
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          usedAt: row.used_at,
        }
      );
    },
    async use(id, at) {
      const result = await db
        .updateTable("account_tokens")
        .set({ used_at: at })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .where("expires_at", ">", at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async removeOthersOfUser(userId, purpose, keepId) {
      const result = await db
        .deleteFrom("account_tokens")
        .where("user_id", "=", userId)
        .where("purpose", "=", purpose)
        .where("id", "<>", keepId)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removePurpose(purpose) {
      const result = await db.deleteFrom("account_tokens").where("purpose", "=", purpose).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async removeExpired(before) {
      const result = await db.deleteFrom("account_tokens").where("expires_at", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
