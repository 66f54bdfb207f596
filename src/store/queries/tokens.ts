import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { TokenRepo } from "../store.js";
import { toApplication } from "./apps.js";
import { prepared } from "./prepared.js";
import { toUser } from "./users.js";

/** A live token with its user and application: every authenticated request runs it. */
const findLiveToken = prepared(["tokenHash"], (db, values: { tokenHash: string }) =>
  db
    .selectFrom("tokens")
    .innerJoin("users", "users.id", "tokens.user_id")
    .innerJoin("applications", "applications.id", "tokens.app_id")
    .select([
      "tokens.id as token_id",
      "tokens.secret as token_secret",
      "users.id as user_id",
      "users.name as user_name",
      "users.email",
      "users.family_kana",
      "users.given_kana",
      "applications.id",
      "applications.name",
      "applications.consumer_key",
      "applications.consumer_secret",
      "applications.access_level",
      "applications.created_at",
    ])
    .where("tokens.token_hash", "=", values.tokenHash)
    .where("tokens.revoked_at", "is", null)
    // A disabled account's tokens stop at once: every request looks its token up.
    .where("users.disabled_at", "is", null),
);

/** Token queries: looked up by the token's SHA-256, never by the token itself. */
export function tokenRepo(db: Kysely<Database>): TokenRepo {
  return {
    async insert(token) {
      const row = await db
        .insertInto("tokens")
        .values({
          user_id: token.userId,
          app_id: token.appId,
          token_hash: token.tokenHash,
          secret: token.secret,
          label: token.label,
          origin: token.origin ?? "personal",
          created_at: token.createdAt,
          revoked_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async findLive(tokenHash) {
      const [row] = await findLiveToken(db, { tokenHash });
      if (!row) return undefined;
      return {
        tokenId: row.token_id,
        secret: row.token_secret,
        user: toUser({ ...row, id: row.user_id, name: row.user_name }),
        app: toApplication(row),
      };
    },
    async list() {
      const rows = await db
        .selectFrom("tokens")
        .innerJoin("users", "users.id", "tokens.user_id")
        .innerJoin("applications", "applications.id", "tokens.app_id")
        .select([
          "tokens.id",
          "users.email",
          "applications.consumer_key",
          "tokens.label",
          "tokens.created_at",
          "tokens.revoked_at",
        ])
        .orderBy("tokens.id")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        userEmail: row.email,
        appConsumerKey: row.consumer_key,
        label: row.label,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
      }));
    },
    async revoke(id, at) {
      const result = await db
        .updateTable("tokens")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async listLiveOfUser(userId) {
      const rows = await db
        .selectFrom("tokens")
        .innerJoin("applications", "applications.id", "tokens.app_id")
        .select([
          "tokens.id",
          "tokens.app_id",
          "applications.name",
          "applications.access_level",
          "tokens.label",
          "tokens.origin",
          "tokens.created_at",
        ])
        .where("tokens.user_id", "=", userId)
        .where("tokens.revoked_at", "is", null)
        .orderBy("tokens.id")
        .execute();
      return rows.map((row) => ({
        id: row.id,
        appId: row.app_id,
        appName: row.name,
        appLevel: row.access_level,
        label: row.label,
        origin: row.origin,
        createdAt: row.created_at,
      }));
    },
    async revokeOfUser(userId, id, origin, at) {
      const result = await db
        .updateTable("tokens")
        .set({ revoked_at: at })
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .where("origin", "=", origin)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async revokeAppOfUser(userId, appId, origin, at) {
      const result = await db
        .updateTable("tokens")
        .set({ revoked_at: at })
        .where("app_id", "=", appId)
        .where("user_id", "=", userId)
        .where("origin", "=", origin)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}
