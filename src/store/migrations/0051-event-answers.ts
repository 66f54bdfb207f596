import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * Participants' answers to a group event (issue #31): `event_participants.answer` is `attending`,
 * `maybe` or `declined`, null until the participant answers; `answered_at` when they did. Kept on
 * the participant's row, so the group's change triggers of 0021 see an answer as a change.
 */
export const eventAnswers = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("event_participants").addColumn("answer", "text").execute();
    await db.schema.alterTable("event_participants").addColumn("answered_at", t.int64).execute();
  },
});
