import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** A single sign-on under way, as started. */
export interface OidcFlow {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
  readonly issuer: string;
  readonly next: string;
  readonly expiresAt: number;
}

/** Single sign-on's rows (migration 0042); the one writer is services/oidc/. */
export interface OidcRepo {
  /** The account linked to the provider's person, if any. */
  linkedUser(issuer: string, subject: string): Promise<number | undefined>;
  /** Links the person to the account (a link of the same person is replaced). */
  link(issuer: string, subject: string, userId: number, at: number): Promise<void>;
  touchLink(issuer: string, subject: string, at: number): Promise<void>;
  putFlow(browserHash: string, flow: OidcFlow, now: number): Promise<void>;
  /** The flow the browser started, removed (single use), when it has not expired. */
  takeFlow(browserHash: string, now: number): Promise<OidcFlow | undefined>;
}

export function oidcRepo(db: Kysely<Database>): OidcRepo {
  return {
    async linkedUser(issuer, subject) {
      const row = await db
        .selectFrom("oidc_links")
        .select("user_id")
        .where("issuer", "=", issuer)
        .where("subject", "=", subject)
        .executeTakeFirst();
      return row === undefined ? undefined : Number(row.user_id);
    },
    async link(issuer, subject, userId, at) {
      await db
        .insertInto("oidc_links")
        .values({ issuer, subject, user_id: userId, created_at: at, used_at: at })
        .onConflict((oc) =>
          oc.columns(["issuer", "subject"]).doUpdateSet({ user_id: userId, created_at: at, used_at: at }),
        )
        .execute();
    },
    async touchLink(issuer, subject, at) {
      await db
        .updateTable("oidc_links")
        .set({ used_at: at })
        .where("issuer", "=", issuer)
        .where("subject", "=", subject)
        .execute();
    },
    async putFlow(browserHash, flow, now) {
      // Sweep the abandoned ones on the way: a flow lives 10 minutes.
      await db.deleteFrom("oidc_sign_ins").where("expires_at", "<=", now).execute();
      const row = {
        state: flow.state,
        nonce: flow.nonce,
        code_verifier: flow.codeVerifier,
        issuer: flow.issuer,
        next: flow.next,
        expires_at: flow.expiresAt,
      };
      await db
        .insertInto("oidc_sign_ins")
        .values({ browser_hash: browserHash, ...row })
        .onConflict((oc) => oc.column("browser_hash").doUpdateSet(row))
        .execute();
    },
    async takeFlow(browserHash, now) {
      const row = await db
        .deleteFrom("oidc_sign_ins")
        .where("browser_hash", "=", browserHash)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined || Number(row.expires_at) <= now) return undefined;
      return {
        state: row.state,
        nonce: row.nonce,
        codeVerifier: row.code_verifier,
        issuer: row.issuer,
        next: row.next,
        expiresAt: Number(row.expires_at),
      };
    },
  };
}
