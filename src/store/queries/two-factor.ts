import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** An account's TOTP secret as stored: sealed, with its state. */
export interface TotpRow {
  /** Sealed (auth/secret-box.ts); opened only to check a code or to show a pending enrolment. */
  readonly sealed: string;
  readonly createdAt: number;
  /** Null while the enrolment waits for its first code. */
  readonly confirmedAt: number | null;
  /** The time step of the last accepted code. */
  readonly lastStep: number | null;
}

/** What sign-in and the account page need to know of an account's second factors, in one query. */
export interface TwoFactorState {
  readonly totpOn: boolean;
  readonly recoveryCodesLeft: number;
  /** The account's passkeys (migration 0041): each is a second factor too. */
  readonly passkeys: number;
  /** An administrator requires a second factor of this account. */
  readonly requiredByAdmin: boolean;
  readonly siteAdmin: boolean;
}

/** Two-factor sign-in's rows (migration 0038); the one writer is services/two-factor/. */
export interface TwoFactorRepo {
  state(userId: number): Promise<TwoFactorState>;
  findTotp(userId: number): Promise<TotpRow | undefined>;
  /** Starts (or starts again) an enrolment: the sealed secret, not yet on. Never replaces a confirmed one. */
  putPendingTotp(userId: number, sealed: string, at: number): Promise<void>;
  /** Turns the pending secret on with the step of its first code; false when nothing was pending. */
  confirmTotp(userId: number, at: number, step: number): Promise<boolean>;
  /**
   * Records `step` as the last one used, if it is later than the last one: false for a replay, even
   * when two requests race with the same code (one conditional update).
   */
  useTotpStep(userId: number, step: number): Promise<boolean>;
  removeTotp(userId: number): Promise<number>;
  /** Replaces every recovery code of the user with these hashes. */
  replaceRecoveryCodes(userId: number, hashes: readonly string[], at: number): Promise<void>;
  unusedRecoveryCodes(userId: number): Promise<{ id: number; hash: string }[]>;
  /** Marks the code used, if it still is unused: false when another request took it first. */
  useRecoveryCode(id: number, at: number): Promise<boolean>;
  removeRecoveryCodes(userId: number): Promise<number>;
  /** Sets or clears the administrator's requirement; true when that changed something. */
  setRequired(userId: number, required: boolean, at: number, by: number | null): Promise<boolean>;
}

export function twoFactorRepo(db: Kysely<Database>): TwoFactorRepo {
  return {
    async state(userId) {
      const row = await db
        .selectFrom("users")
        .select((eb) => [
          "users.site_admin",
          eb
            .selectFrom("totp_secrets")
            .select("confirmed_at")
            .whereRef("totp_secrets.user_id", "=", "users.id")
            .as("confirmed_at"),
          eb
            .selectFrom("recovery_codes")
            .select((c) => c.fn.countAll<number>().as("n"))
            .whereRef("recovery_codes.user_id", "=", "users.id")
            .where("recovery_codes.used_at", "is", null)
            .as("codes"),
          eb
            .selectFrom("passkeys")
            .select((c) => c.fn.countAll<number>().as("n"))
            .whereRef("passkeys.user_id", "=", "users.id")
            .as("passkeys"),
          eb
            .selectFrom("two_factor_requirements")
            .select("required_at")
            .whereRef("two_factor_requirements.user_id", "=", "users.id")
            .as("required_at"),
        ])
        .where("users.id", "=", userId)
        .executeTakeFirst();
      return {
        totpOn: row?.confirmed_at != null,
        recoveryCodesLeft: Number(row?.codes ?? 0),
        passkeys: Number(row?.passkeys ?? 0),
        requiredByAdmin: row?.required_at != null,
        siteAdmin: Number(row?.site_admin ?? 0) === 1,
      };
    },
    async findTotp(userId) {
      const row = await db.selectFrom("totp_secrets").selectAll().where("user_id", "=", userId).executeTakeFirst();
      return (
        row && {
          sealed: row.secret,
          createdAt: Number(row.created_at),
          confirmedAt: row.confirmed_at === null ? null : Number(row.confirmed_at),
          lastStep: row.last_step === null ? null : Number(row.last_step),
        }
      );
    },
    async putPendingTotp(userId, sealed, at) {
      await db.deleteFrom("totp_secrets").where("user_id", "=", userId).where("confirmed_at", "is", null).execute();
      await db
        .insertInto("totp_secrets")
        .values({ user_id: userId, secret: sealed, created_at: at, confirmed_at: null, last_step: null })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .execute();
    },
    async confirmTotp(userId, at, step) {
      const result = await db
        .updateTable("totp_secrets")
        .set({ confirmed_at: at, last_step: step })
        .where("user_id", "=", userId)
        .where("confirmed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async useTotpStep(userId, step) {
      const result = await db
        .updateTable("totp_secrets")
        .set({ last_step: step })
        .where("user_id", "=", userId)
        .where("confirmed_at", "is not", null)
        .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async removeTotp(userId) {
      const result = await db.deleteFrom("totp_secrets").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async replaceRecoveryCodes(userId, hashes, at) {
      await db.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
      if (hashes.length === 0) return;
      await db
        .insertInto("recovery_codes")
        .values(hashes.map((hash) => ({ user_id: userId, code_hash: hash, created_at: at, used_at: null })))
        .execute();
    },
    async unusedRecoveryCodes(userId) {
      const rows = await db
        .selectFrom("recovery_codes")
        .select(["id", "code_hash"])
        .where("user_id", "=", userId)
        .where("used_at", "is", null)
        .orderBy("id")
        .execute();
      return rows.map((row) => ({ id: Number(row.id), hash: row.code_hash }));
    },
    async useRecoveryCode(id, at) {
      const result = await db
        .updateTable("recovery_codes")
        .set({ used_at: at })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async removeRecoveryCodes(userId) {
      const result = await db.deleteFrom("recovery_codes").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async setRequired(userId, required, at, by) {
      if (!required) {
        const result = await db.deleteFrom("two_factor_requirements").where("user_id", "=", userId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      }
      const result = await db
        .insertInto("two_factor_requirements")
        .values({ user_id: userId, required_at: at, required_by: by })
        .onConflict((oc) => oc.column("user_id").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
