// Who gets notification mail about an item, read when the mail row is made: joined members who
// may read it (an event with participants: those), whose account is in use and who did not turn
// the group's mail off. The choices of people without settings are the defaults, passed in.
import { type Kysely, sql } from "kysely";
import { DEFAULT_MAIL_SETTINGS } from "../../domain/mail-settings.js";
import type { Database } from "../schema.js";
import type { MailItemKind } from "../../domain/mail-change.js";

/** A person a message goes to, with what the message is written in. */
export interface MailRecipient {
  readonly userId: number;
  readonly email: string;
  readonly name: string;
  /** Their language; null: the site's. */
  readonly lang: string | null;
  /** Their time zone; null: the site's. */
  readonly timeZone: string | null;
}

/** An item of a group, as a reader's right to it is checked. */
export interface ReadItem {
  readonly groupId: number;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
}

/**
 * What mail a reader takes: `each` (a message per changed item: mode each, group not muted),
 * `personal` (mentions and assignments: personal mail on).
 */
export type ReaderMail = "each" | "personal";

/** The readers' queries. */
export interface MailReaderRepo {
  /** Readers of the item who take `mail`, by user id after `afterUserId`, at most `limit`. */
  readers(item: ReadItem, mail: ReaderMail, afterUserId: number, limit: number): Promise<MailRecipient[]>;
  /** Of these people, those who are still readers of the item taking `mail` (checked in the writing transaction). */
  stillReaders(item: ReadItem, mail: ReaderMail, userIds: readonly number[]): Promise<Set<number>>;
  /** The person, if their account is in use and they take personal mail (direct messages). */
  personalRecipient(userId: number): Promise<MailRecipient | undefined>;
  /**
   * People whose daily digest is at `hour` of `zone` ("": those who left their zone to the site),
   * by user id after `afterUserId`, at most `limit`.
   */
  digestReaders(zone: string, hour: number, afterUserId: number, limit: number): Promise<MailRecipient[]>;
  /** The time zones people chose ("" for those who left it to the site). */
  zones(): Promise<string[]>;
}

function readersOf(db: Kysely<Database>, item: ReadItem, mail: ReaderMail) {
  const one = sql<number>`1`.as("one");
  return (
    db
      .selectFrom("memberships as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .leftJoin("mail_settings as s", "s.user_id", "u.id")
      .select(["u.id as user_id", "u.email", "u.name", "u.lang", "u.time_zone"])
      .where("m.group_id", "=", item.groupId)
      .where("m.status", "=", "JOIN")
      .where("u.disabled_at", "is", null)
      // The group's own switch, then the mode (each: and the group not muted) or the personal switch.
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("mail_group_settings as o")
              .select(one)
              .whereRef("o.user_id", "=", "m.user_id")
              .where("o.group_id", "=", item.groupId),
          ),
        ),
      )
      .where((eb) =>
        mail === "each"
          ? eb.and([
              eb(eb.fn.coalesce("s.mode", sql.lit(DEFAULT_MAIL_SETTINGS.mode)), "=", "each"),
              eb("m.notify", "=", 1),
            ])
          : eb(eb.fn.coalesce("s.personal", sql.lit(DEFAULT_MAIL_SETTINGS.personal ? 1 : 0)), "=", 1),
      )
      // An event that names participants is theirs alone (docs/api.md "Events").
      .$if(item.itemKind === "GW_SCHEDULE", (query) =>
        query.where((eb) => {
          const participants = () =>
            eb.selectFrom("event_participants as ep").select(one).where("ep.event_id", "=", item.itemId);
          return eb.or([
            eb.not(eb.exists(participants())),
            eb.exists(participants().whereRef("ep.user_id", "=", "m.user_id")),
          ]);
        }),
      )
  );
}

function toRecipient(row: {
  user_id: number;
  email: string;
  name: string;
  lang: string | null;
  time_zone: string | null;
}) {
  return { userId: row.user_id, email: row.email, name: row.name, lang: row.lang, timeZone: row.time_zone };
}

/** The readers' queries over a connection or transaction. */
export function mailReaderRepo(db: Kysely<Database>): MailReaderRepo {
  return {
    async readers(item, mail, afterUserId, limit) {
      // On the membership's columns: the (group, user) key gives the range and the order without
      // a sort, whatever the planner thinks of the other tables (found with PostgreSQL before ANALYZE).
      const rows = await readersOf(db, item, mail)
        .where("m.user_id", ">", afterUserId)
        .orderBy("m.user_id")
        .limit(limit)
        .execute();
      return rows.map(toRecipient);
    },
    async stillReaders(item, mail, userIds) {
      if (userIds.length === 0) return new Set();
      const rows = await readersOf(db, item, mail).where("m.user_id", "in", userIds).execute();
      return new Set(rows.map((row) => row.user_id));
    },
    async personalRecipient(userId) {
      const row = await db
        .selectFrom("users as u")
        .leftJoin("mail_settings as s", "s.user_id", "u.id")
        .select(["u.id as user_id", "u.email", "u.name", "u.lang", "u.time_zone"])
        .where("u.id", "=", userId)
        .where("u.disabled_at", "is", null)
        .where((eb) => eb(eb.fn.coalesce("s.personal", sql.lit(DEFAULT_MAIL_SETTINGS.personal ? 1 : 0)), "=", 1))
        .executeTakeFirst();
      return row && toRecipient(row);
    },
    async digestReaders(zone, hour, afterUserId, limit) {
      const rows = await db
        .selectFrom("users as u")
        .leftJoin("mail_settings as s", "s.user_id", "u.id")
        .select(["u.id as user_id", "u.email", "u.name", "u.lang", "u.time_zone"])
        .where("u.disabled_at", "is", null)
        .where((eb) => (zone === "" ? eb("u.time_zone", "is", null) : eb("u.time_zone", "=", zone)))
        .where((eb) => eb(eb.fn.coalesce("s.mode", sql.lit(DEFAULT_MAIL_SETTINGS.mode)), "=", "digest"))
        .where((eb) => eb(eb.fn.coalesce("s.digest_hour", sql.lit(DEFAULT_MAIL_SETTINGS.digestHour)), "=", hour))
        .where("u.id", ">", afterUserId)
        .orderBy("u.id")
        .limit(limit)
        .execute();
      return rows.map(toRecipient);
    },
    async zones() {
      const rows = await db
        .selectFrom("users")
        .select("time_zone")
        .distinct()
        .where("disabled_at", "is", null)
        .execute();
      return rows.map((row) => row.time_zone ?? "");
    },
  };
}
