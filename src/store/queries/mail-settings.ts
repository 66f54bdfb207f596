import type { Kysely } from "kysely";
import { DEFAULT_MAIL_SETTINGS, MAIL_MODES, type MailSettings } from "../../domain/mail-settings.js";
import type { Database } from "../schema.js";
import type { MailSettingsTable } from "../schema-mail.js";

/** People's notification mail settings and the groups they turned off (migration 0034). */
export interface MailSettingsRepo {
  /** The person's settings; the defaults when they never chose. */
  find(userId: number): Promise<MailSettings>;
  /** Keeps the person's settings. */
  save(userId: number, settings: MailSettings, at: number): Promise<void>;
  /** The ids of the groups the person turned mail off for. */
  groupsOff(userId: number): Promise<Set<number>>;
  /** Turns mail about one group off (`off`) or back to the person's settings. */
  setGroupOff(userId: number, groupId: number, off: boolean, at: number): Promise<void>;
}

/** A settings row as the domain reads it (a value no version wrote reads as the default). */
export function toMailSettings(row: Pick<MailSettingsTable, "mode" | "digest_hour" | "personal"> | undefined) {
  if (row === undefined) return DEFAULT_MAIL_SETTINGS;
  const mode = MAIL_MODES.find((candidate) => candidate === row.mode) ?? DEFAULT_MAIL_SETTINGS.mode;
  const digestHour = row.digest_hour >= 0 && row.digest_hour <= 23 ? row.digest_hour : DEFAULT_MAIL_SETTINGS.digestHour;
  return { mode, digestHour, personal: row.personal === 1 } satisfies MailSettings;
}

/** The settings queries over a connection or transaction. */
export function mailSettingsRepo(db: Kysely<Database>): MailSettingsRepo {
  return {
    async find(userId) {
      const row = await db
        .selectFrom("mail_settings")
        .select(["mode", "digest_hour", "personal"])
        .where("user_id", "=", userId)
        .executeTakeFirst();
      return toMailSettings(row);
    },
    async save(userId, settings, at) {
      const values = {
        mode: settings.mode,
        digest_hour: settings.digestHour,
        personal: settings.personal ? 1 : 0,
        updated_at: at,
      };
      await db
        .insertInto("mail_settings")
        .values({ user_id: userId, ...values })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
        .execute();
    },
    async groupsOff(userId) {
      const rows = await db
        .selectFrom("mail_group_settings")
        .select("group_id")
        .where("user_id", "=", userId)
        .execute();
      return new Set(rows.map((row) => row.group_id));
    },
    async setGroupOff(userId, groupId, off, at) {
      if (!off) {
        await db
          .deleteFrom("mail_group_settings")
          .where("user_id", "=", userId)
          .where("group_id", "=", groupId)
          .execute();
        return;
      }
      await db
        .insertInto("mail_group_settings")
        .values({ user_id: userId, group_id: groupId, updated_at: at })
        .onConflict((oc) => oc.columns(["user_id", "group_id"]).doNothing())
        .execute();
    },
  };
}
