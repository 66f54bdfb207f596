import type { Migration } from "kysely";

/**
 * Nothing to change here. SQLite's 0008 rebuilds `notifications` so that its constraints fail a
 * statement instead of aborting it, which spares the fan-out SQLite's statement journal;
 * PostgreSQL keeps no such journal (a failed statement's row versions are simply never visible),
 * and its fan-out stays one upsert (queries/notification-fanout.ts). The number keeps both
 * engines' migrations in step.
 */
export const notificationLayout: Migration = {
  async up() {},
};
