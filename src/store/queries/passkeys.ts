import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** A passkey as stored. */
export interface PasskeyRow {
  readonly id: number;
  readonly userId: number;
  /** base64url */
  readonly credentialId: string;
  /** base64url of the COSE key */
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
  readonly multiDevice: boolean;
  readonly backedUp: boolean;
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A new passkey's columns. */
export type NewPasskey = Omit<PasskeyRow, "id" | "lastUsedAt">;

/** Passkeys and their used challenges (migration 0041); the one writer is services/two-factor/passkeys.ts. */
export interface PasskeyRepo {
  /** The account's passkeys, oldest first. */
  listOf(userId: number): Promise<PasskeyRow[]>;
  findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined>;
  /** Adds one; false when that credential id is registered already (to any account). */
  insert(passkey: NewPasskey): Promise<boolean>;
  /** Records a sign-in with it: the counter and backup state the authenticator reported. */
  markUsed(id: number, counter: number, backedUp: boolean, at: number): Promise<void>;
  /** Removes the account's passkey `id`; false when it has none such. */
  remove(userId: number, id: number): Promise<boolean>;
  removeAllOf(userId: number): Promise<number>;
  /**
   * Records a challenge answered (its hash, kept until `expiresAt`): false when it was answered
   * already, even when two requests race (the primary key). Forgets the expired ones first.
   */
  useChallenge(hash: string, expiresAt: number, now: number): Promise<boolean>;
}

type Stored = Database["passkeys"];

function toRow(row: { [K in keyof Stored]: K extends "id" ? number : Stored[K] }): PasskeyRow {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === "" ? [] : row.transports.split(","),
    multiDevice: Number(row.multi_device) === 1,
    backedUp: Number(row.backed_up) === 1,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

export function passkeyRepo(db: Kysely<Database>): PasskeyRepo {
  return {
    async listOf(userId) {
      const rows = await db.selectFrom("passkeys").selectAll().where("user_id", "=", userId).orderBy("id").execute();
      return rows.map(toRow);
    },
    async findByCredentialId(credentialId) {
      const row = await db
        .selectFrom("passkeys")
        .selectAll()
        .where("credential_id", "=", credentialId)
        .executeTakeFirst();
      return row && toRow(row);
    },
    async insert(passkey) {
      const result = await db
        .insertInto("passkeys")
        .values({
          user_id: passkey.userId,
          credential_id: passkey.credentialId,
          public_key: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports.join(","),
          multi_device: passkey.multiDevice ? 1 : 0,
          backed_up: passkey.backedUp ? 1 : 0,
          name: passkey.name,
          created_at: passkey.createdAt,
          last_used_at: null,
        })
        .onConflict((oc) => oc.column("credential_id").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async markUsed(id, counter, backedUp, at) {
      await db
        .updateTable("passkeys")
        .set({ counter, backed_up: backedUp ? 1 : 0, last_used_at: at })
        .where("id", "=", id)
        .execute();
    },
    async remove(userId, id) {
      const result = await db
        .deleteFrom("passkeys")
        .where("user_id", "=", userId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async removeAllOf(userId) {
      const result = await db.deleteFrom("passkeys").where("user_id", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async useChallenge(hash, expiresAt, now) {
      await db.deleteFrom("passkey_challenges_used").where("expires_at", "<=", now).execute();
      const result = await db
        .insertInto("passkey_challenges_used")
        .values({ challenge_hash: hash, expires_at: expiresAt })
        .onConflict((oc) => oc.column("challenge_hash").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}
