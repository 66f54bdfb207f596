import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Applications the operator marked for legacy signing: their `/oauth/token` request may be signed
 * with an empty token secret (Catalyst::Authentication::Credential::OAuth 0.04 never keeps the
 * temporary secret). Off for every application, existing ones included: only an operator turns it on.
 *
 * Item 1 of the same issue (Bearer takes personal tokens only) needs no column: `tokens.origin`
 * (migration 0007) already tells `personal` tokens (the settings page, `kairan token add`, seed
 * files) from `oauth` ones (the three-legged flow and xAuth), and 0007's backfill marked the
 * older OAuth-issued tokens by the labels the OAuth service gave them.
 */
export const legacySigning = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable("applications")
      .addColumn("legacy_signing", t.int32, (c) => c.notNull().defaultTo(0))
      .execute();
  },
});
