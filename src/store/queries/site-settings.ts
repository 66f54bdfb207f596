import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** The site settings' rows (migration 0036): each value is JSON. */
export interface SiteSettingRepo {
  all(): Promise<{ name: string; value: string }[]>;
  put(name: string, value: string, at: number, by: number | null): Promise<void>;
  /** Forgets a setting: it falls back to the server's option again. */
  remove(name: string): Promise<void>;
}

export function siteSettingRepo(db: Kysely<Database>): SiteSettingRepo {
  return {
    all: () => db.selectFrom("site_settings").select(["name", "value"]).orderBy("name").execute(),
    async put(name, value, at, by) {
      await db
        .insertInto("site_settings")
        .values({ name, value, updated_at: at, updated_by: by })
        .onConflict((oc) => oc.column("name").doUpdateSet({ value, updated_at: at, updated_by: by }))
        .execute();
    },
    async remove(name) {
      await db.deleteFrom("site_settings").where("name", "=", name).execute();
    },
  };
}
