import { type Kysely, type Migration, sql } from "kysely";
import type { Engine } from "./columns.js";

/**
 * `notifications` rebuilt so that each of its constraints, when violated, fails the statement
 * (`on conflict fail`) instead of aborting it (SQLite's default). An aborting multi-row statement
 * undoes its own changes, so inside a transaction SQLite copies every page it is about to change
 * into a statement journal first; a failing one keeps them, and the transaction that ran it rolls
 * back as a whole when the error reaches it (store.transaction). The fan-out writes into nearly
 * every page of the page index in a large group; without that copy, creating a topic in a group of
 * 5,000 members who hold 100 notifications each takes a quarter less time (bench/fanout.ts's steady
 * state, the fan-out statements and their commit alone: 32 ms against 42 with 4 KB pages, 22
 * against 28 with 16 KB pages). An upsert's update part always aborts, whatever the table says,
 * so SQLite's fan-out is an update and an insert (queries/notification-fanout.ts).
 *
 * Columns, ids (and the id sequence), rows and indexes are as before.
 *
 * PostgreSQL keeps its table: it has no such journal (a failed statement's row versions are simply
 * never visible), and its fan-out stays one upsert. The migration is there, empty, so that both
 * engines record the same names.
 */
export const notificationLayout = (engine: Engine): Migration => (engine === "sqlite" ? rebuild : { async up() {} });

const rebuild: Migration = {
  async up(db: Kysely<unknown>) {
    await db.transaction().execute(async (trx) => {
      const sequence = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'notifications'`.execute(
        trx,
      );
      await sql`create table notifications_rebuilt (
        id integer primary key on conflict fail autoincrement,
        user_id integer not null on conflict fail,
        group_id integer not null on conflict fail,
        item_kind text not null on conflict fail,
        item_id integer not null on conflict fail,
        actor_id integer,
        event text not null on conflict fail,
        confirmed integer not null on conflict fail default 0,
        unconfirmed_comments integer not null on conflict fail default 0,
        comment_number integer,
        comment_deleted integer not null on conflict fail default 0,
        summary_updated_at integer,
        summary_updator_id integer,
        created_at integer not null on conflict fail,
        updated_at integer not null on conflict fail,
        last_access_at integer,
        constraint notifications_item_user unique (item_kind, item_id, user_id) on conflict fail
      )`.execute(trx);
      await sql`insert into notifications_rebuilt (${sql.raw(COLUMNS)}) select ${sql.raw(COLUMNS)} from notifications order by id`.execute(
        trx,
      );
      await sql`drop table notifications`.execute(trx);
      await sql`alter table notifications_rebuilt rename to notifications`.execute(trx);
      // The same page index as 0005's (see there why it is the only one).
      await sql`create index notifications_user_page on notifications (user_id, updated_at, id, confirmed)`.execute(
        trx,
      );
      // AUTOINCREMENT never hands out an id again, not even that of a deleted last row.
      const seq = sequence.rows[0]?.seq;
      if (seq !== undefined) {
        await sql`delete from sqlite_sequence where name = 'notifications'`.execute(trx);
        await sql`insert into sqlite_sequence (name, seq) values ('notifications', ${seq})`.execute(trx);
      }
    });
  },
};

const COLUMNS = `id, user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments, comment_number,
  comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at`;
