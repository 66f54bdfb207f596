import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * The site's settings changed in the browser (domain/site-settings.ts): one row per setting ever
 * changed, its value as JSON. A setting without a row follows the server's options.
 */
export const siteSettings = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("site_settings")
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("updated_at", t.int64, (c) => c.notNull())
      .addColumn("updated_by", t.int64, (c) => c.references("users.id").onDelete("set null"))
      .execute();
  },
});
