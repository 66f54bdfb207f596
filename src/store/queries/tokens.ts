import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import { APPLICATION_COLUMNS, toApplication } from "./apps.js";
import { prepared } from "./prepared.js";
import { toUser } from "./users.js";
import type { Application } from "../../domain/access.js";
import type { TokenOrigin, UserToken } from "../../domain/session.js";
import type { User } from "../../domain/user.js";

/** A token credential as the authenticator needs it. */
export interface TokenGrant {
  readonly tokenId: number;
  readonly secret: string;
  /** Bearer accepts only `personal` tokens; an OAuth token is public and needs its signature. */
  readonly origin: TokenOrigin;
  readonly user: User;
  readonly app: Application & { consumerSecret: string };
}

/** A token as an operator lists it (never the token itself). */
export interface TokenSummary {
  readonly id: number;
  readonly userEmail: string;
  readonly appConsumerKey: string;
  readonly label: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}

/** Token credentials / personal tokens. */
export interface TokenRepo {
  /** `origin` defaults to `personal`. */
  insert(token: {
    userId: number;
    appId: number;
    tokenHash: string;
    secret: string;
    label: string;
    origin?: TokenOrigin;
    createdAt: number;
  }): Promise<number>;
  /** The live (not revoked) token with this hash. */
  findLive(tokenHash: string): Promise<TokenGrant | undefined>;
  /** A live token by its id (a WebSub subscription's credential, re-checked at each push). */
  findLiveById(tokenId: number): Promise<TokenGrant | undefined>;
  list(): Promise<TokenSummary[]>;
  /** Marks the token revoked; false when unknown or already revoked. */
  revoke(id: number, at: number): Promise<boolean>;
  /** One user's live tokens, oldest first. */
  listLiveOfUser(userId: number): Promise<UserToken[]>;
  /** Revokes one of the user's live tokens of this origin; false when the user has no such token. */
  revokeOfUser(userId: number, id: number, origin: TokenOrigin, at: number): Promise<boolean>;
  /** Revokes every live token of this origin the user holds for the application; returns how many. */
  revokeAppOfUser(userId: number, appId: number, origin: TokenOrigin, at: number): Promise<number>;
  /** Revokes every live token of this origin the user holds (a password reset); returns how many. */
  revokeAllOfUser(userId: number, origin: TokenOrigin, at: number): Promise<number>;
  /** Revokes every live token issued through the application, whoever holds it; returns how many. */
  revokeAllOfApp(appId: number, at: number): Promise<number>;
}

/** Live tokens with their user and application (a disabled account's tokens are not live). */
function liveTokens(db: Kysely<Database>) {
  return (
    db
      .selectFrom("tokens")
      .innerJoin("users", "users.id", "tokens.user_id")
      .innerJoin("applications", "applications.id", "tokens.app_id")
      .select([
        "tokens.id as token_id",
        "tokens.secret as token_secret",
        "tokens.origin as token_origin",
        "users.id as user_id",
        "users.name as user_name",
        "users.email",
        "users.family_kana",
        "users.given_kana",
        ...APPLICATION_COLUMNS,
      ])
      .where("tokens.revoked_at", "is", null)
      // A disabled account's tokens stop at once: every request looks its token up.
      .where("users.disabled_at", "is", null)
  );
}

/** A live token by its hash: every authenticated request runs it. */
const findLiveToken = prepared(["tokenHash"], (db, values: { tokenHash: string }) =>
  liveTokens(db).where("tokens.token_hash", "=", values.tokenHash),
);

/** A row of {@link liveTokens} as a grant. */
function toGrant(row: Awaited<ReturnType<ReturnType<typeof liveTokens>["executeTakeFirstOrThrow"]>>): TokenGrant {
  return {
    tokenId: row.token_id,
    secret: row.token_secret,
    origin: row.token_origin,
    user: toUser({ ...row, id: row.user_id, name: row.user_name }),
    app: toApplication(row),
  };
}

/** Revokes the live tokens that match every field given; returns how many. */
async function revokeLive(
  db: Kysely<Database>,
  at: number,
  which: { readonly id?: number; readonly appId?: number; readonly userId?: number; readonly origin?: TokenOrigin },
): Promise<number> {
  let query = db.updateTable("tokens").set({ revoked_at: at }).where("revoked_at", "is", null);
  if (which.id !== undefined) query = query.where("id", "=", which.id);
  if (which.appId !== undefined) query = query.where("app_id", "=", which.appId);
  if (which.userId !== undefined) query = query.where("user_id", "=", which.userId);
  if (which.origin !== undefined) query = query.where("origin", "=", which.origin);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

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
      return row && toGrant(row);
    },
    async findLiveById(tokenId) {
      const row = await liveTokens(db).where("tokens.id", "=", tokenId).executeTakeFirst();
      return row && toGrant(row);
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
      return (await revokeLive(db, at, { id })) > 0;
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
      return (await revokeLive(db, at, { id, userId, origin })) > 0;
    },
    async revokeAppOfUser(userId, appId, origin, at) {
      return revokeLive(db, at, { appId, userId, origin });
    },
    async revokeAllOfApp(appId, at) {
      return revokeLive(db, at, { appId });
    },
    async revokeAllOfUser(userId, origin, at) {
      return revokeLive(db, at, { userId, origin });
    },
  };
}
