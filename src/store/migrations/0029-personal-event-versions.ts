import type { Kysely, Migration } from "kysely";
import { PERSONAL_EVENTS } from "../change-tracking.js";
import { statementFunction, statementTriggers } from "./0009-change-versions.postgres.js";
import { rowTriggers } from "./0009-change-versions.sqlite.js";
import type { Engine } from "./columns.js";

/**
 * Every write of a personal event moves its owner's change version, so the personal schedule
 * (`/api/schedule/V2`) can be kept by the feed cache like the other feeds: the group events it also
 * shows move their groups' versions already, and a personal event is its owner's alone. Exceptions
 * are written only together with their event's row (store/queries/personal-events.ts), which is
 * what moves the version.
 */
export const personalEventVersions = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    if (engine === "sqlite") {
      await rowTriggers(db, PERSONAL_EVENTS, [{ table: "member_changes", key: (row) => `${row}.owner_id` }]);
    } else {
      await statementFunction(db, "kairan_owner_rows_changed", undefined, (rows) => `SELECT owner_id FROM ${rows}`);
      await statementTriggers(db, PERSONAL_EVENTS, "kairan_owner_rows_changed");
    }
  },
});
