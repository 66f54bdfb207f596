import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { APPLICATION_COLUMNS, toApplication } from "./apps.js";
import type { Application } from "../../domain/access.js";

/** One use of an OAuth nonce; `tokenHash` is "" when the request carries no token. */
export interface NonceUse {
  readonly consumerKey: string;
  readonly tokenHash: string;
  readonly nonce: string;
  readonly timestamp: number;
  /** Epoch ms after which the timestamp check alone refuses a replay, so the row can go. */
  readonly expiresAt: number;
}

/** OAuth nonces: shared by every server process through the database. */
export interface NonceRepo {
  /** Records the nonce atomically; false when this (consumer, token, nonce, timestamp) was seen. */
  claim(use: NonceUse): Promise<boolean>;
  /** Deletes nonces whose window has passed; returns how many. */
  removeExpired(now: number): Promise<number>;
}

/** An OAuth temporary credential (request token) with the application it was issued to. */
export interface TemporaryCredential {
  readonly id: number;
  readonly secret: string;
  readonly app: Application;
  /** An absolute http(s) URL, or "oob". */
  readonly callback: string;
  readonly csrf: string;
  readonly status: "pending" | "approved" | "denied";
  readonly userId: number | null;
  readonly verifier: string | null;
  readonly expiresAt: number;
}

/** The user's answer on the authorize page. */
export type AuthorizationDecision =
  { readonly status: "approved"; readonly userId: number; readonly verifier: string } | { readonly status: "denied" };

/** OAuth temporary credentials: short-lived and single-use. */
export interface TemporaryCredentialRepo {
  insert(credential: {
    tokenHash: string;
    secret: string;
    appId: number;
    callback: string;
    csrf: string;
    createdAt: number;
    expiresAt: number;
  }): Promise<void>;
  /** The credential with this token hash, unless it has expired. */
  findLive(tokenHash: string, now: number): Promise<TemporaryCredential | undefined>;
  /** Records the decision on a pending credential; false when it was no longer pending. */
  decide(id: number, decision: AuthorizationDecision): Promise<boolean>;
  /** Deletes the credential as it is exchanged; false when another exchange got there first. */
  consume(id: number): Promise<boolean>;
  /** Deletes expired credentials; returns how many. */
  removeExpired(now: number): Promise<number>;
}

/** Nonce queries: insert-or-nothing on the unique key, so the check and the record are one statement. */
export function nonceRepo(db: Kysely<Database>): NonceRepo {
  return {
    async claim(use) {
      const result = await db
        .insertInto("oauth_nonces")
        .values({
          consumer_key: use.consumerKey,
          token: use.tokenHash,
          nonce: use.nonce,
          timestamp: use.timestamp,
          expires_at: use.expiresAt,
        })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async removeExpired(now) {
      const result = await db.deleteFrom("oauth_nonces").where("expires_at", "<", now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Temporary credential queries; the token is only ever looked up by its hash. */
export function temporaryCredentialRepo(db: Kysely<Database>): TemporaryCredentialRepo {
  return {
    async insert(credential) {
      await db
        .insertInto("oauth_temporary_credentials")
        .values({
          token_hash: credential.tokenHash,
          secret: credential.secret,
          app_id: credential.appId,
          callback: credential.callback,
          csrf: credential.csrf,
          status: "pending",
          user_id: null,
          verifier: null,
          created_at: credential.createdAt,
          expires_at: credential.expiresAt,
        })
        .execute();
    },
    async findLive(tokenHash, now) {
      const row = await db
        .selectFrom("oauth_temporary_credentials as t")
        .innerJoin("applications", "applications.id", "t.app_id")
        .select([
          "t.id as credential_id",
          "t.secret",
          "t.callback",
          "t.csrf",
          "t.status",
          "t.user_id",
          "t.verifier",
          "t.expires_at",
        ])
        .select(APPLICATION_COLUMNS)
        .where("t.token_hash", "=", tokenHash)
        .where("t.expires_at", ">", now)
        .executeTakeFirst();
      if (!row) return undefined;
      const { consumerSecret: _secret, ...app } = toApplication(row);
      return {
        id: row.credential_id,
        secret: row.secret,
        app,
        callback: row.callback,
        csrf: row.csrf,
        status: row.status,
        userId: row.user_id,
        verifier: row.verifier,
        expiresAt: row.expires_at,
      };
    },
    async decide(id, decision) {
      const result = await db
        .updateTable("oauth_temporary_credentials")
        .set(
          decision.status === "approved"
            ? { status: "approved", user_id: decision.userId, verifier: decision.verifier }
            : { status: "denied" },
        )
        .where("id", "=", id)
        .where("status", "=", "pending")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async consume(id) {
      const result = await db.deleteFrom("oauth_temporary_credentials").where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async removeExpired(now) {
      const result = await db
        .deleteFrom("oauth_temporary_credentials")
        .where("expires_at", "<=", now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
