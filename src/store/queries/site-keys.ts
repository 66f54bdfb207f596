import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** The site's random keys by name (migration 0032). */
export interface SiteKeyRepo {
  /**
   * The key named `name`: the stored one, or `secret` when none was stored yet (then stored).
   * Two processes racing to make it both get the one that was stored first.
   */
  getOrCreate(name: string, secret: string, at: number): Promise<string>;
  /** The key named `name` if it was made already (a check of a token must not make it). */
  find(name: string): Promise<string | undefined>;
}

/** The site key queries over a connection or transaction. */
export function siteKeyRepo(db: Kysely<Database>): SiteKeyRepo {
  return {
    async getOrCreate(name, secret, at) {
      await db
        .insertInto("site_keys")
        .values({ name, secret, created_at: at })
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      const row = await db.selectFrom("site_keys").select("secret").where("name", "=", name).executeTakeFirstOrThrow();
      return row.secret;
    },
    async find(name) {
      const row = await db.selectFrom("site_keys").select("secret").where("name", "=", name).executeTakeFirst();
      return row?.secret;
    },
  };
}
