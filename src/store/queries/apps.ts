import type { Kysely, Selectable } from "kysely";
import type { AccessLevel, Application } from "../../domain/access.js";
import type { ApplicationsTable, Database } from "../schema.js";

/** An application as the OAuth verifier needs it: its secret and the operator's legacy-signing mark. */
export type ConsumerApplication = Application & { readonly consumerSecret: string; readonly legacySigning: boolean };

/** Registered applications. */
export interface AppRepo {
  insert(app: {
    name: string;
    consumerKey: string;
    consumerSecret: string;
    accessLevel: AccessLevel;
    legacySigning?: boolean;
    createdAt: number;
  }): Promise<Application>;
  findByConsumerKey(key: string): Promise<ConsumerApplication | undefined>;
  /** Sets or clears the legacy-signing mark (docs/operations.md "kairan app"); false when unknown. */
  setLegacySigning(consumerKey: string, on: boolean): Promise<boolean>;
  list(): Promise<Application[]>;
  /** Every application with what the administration shows of it (never the secret), in id order. */
  listDetailed(): Promise<DetailedApplication[]>;
  /** Sets the access level; false when unknown. */
  setAccessLevel(consumerKey: string, level: AccessLevel): Promise<boolean>;
  /** Replaces the consumer secret; false when unknown. */
  setSecret(consumerKey: string, secret: string): Promise<boolean>;
  /** Removes the application and every token issued through it; false when unknown. */
  remove(consumerKey: string): Promise<boolean>;
}

/** An application as the administration lists it. */
export interface DetailedApplication extends Application {
  readonly legacySigning: boolean;
  readonly createdAt: number;
  /** Tokens issued through it and not revoked. */
  readonly liveTokens: number;
}

/** The columns {@link toApplication} reads, for queries that join applications. */
export const APPLICATION_COLUMNS = [
  "applications.id",
  "applications.name",
  "applications.consumer_key",
  "applications.consumer_secret",
  "applications.access_level",
  "applications.created_at",
] as const;

/** Maps an applications row to the domain type, keeping the secret for signature checks. */
export function toApplication(
  row: Omit<Selectable<ApplicationsTable>, "legacy_signing">,
): Application & { consumerSecret: string } {
  return {
    id: row.id,
    name: row.name,
    consumerKey: row.consumer_key,
    accessLevel: row.access_level as AccessLevel,
    consumerSecret: row.consumer_secret,
  };
}

/** Applications queries. */
export function appRepo(db: Kysely<Database>): AppRepo {
  return {
    async insert(app) {
      const row = await db
        .insertInto("applications")
        .values({
          name: app.name,
          consumer_key: app.consumerKey,
          consumer_secret: app.consumerSecret,
          access_level: app.accessLevel,
          legacy_signing: app.legacySigning === true ? 1 : 0,
          created_at: app.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return publicPart(toApplication(row));
    },
    async findByConsumerKey(key) {
      const row = await db.selectFrom("applications").selectAll().where("consumer_key", "=", key).executeTakeFirst();
      return row && { ...toApplication(row), legacySigning: row.legacy_signing === 1 };
    },
    async setLegacySigning(consumerKey, on) {
      const result = await db
        .updateTable("applications")
        .set({ legacy_signing: on ? 1 : 0 })
        .where("consumer_key", "=", consumerKey)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async list() {
      const rows = await db.selectFrom("applications").selectAll().orderBy("id").execute();
      return rows.map((row) => publicPart(toApplication(row)));
    },
    async listDetailed() {
      const rows = await db
        .selectFrom("applications")
        .leftJoin("tokens", (join) =>
          join.onRef("tokens.app_id", "=", "applications.id").on("tokens.revoked_at", "is", null),
        )
        .select([...APPLICATION_COLUMNS, "applications.legacy_signing"])
        .select((eb) => eb.fn.count<string | number>("tokens.id").as("live_tokens"))
        .groupBy([...APPLICATION_COLUMNS, "applications.legacy_signing"])
        .orderBy("applications.id")
        .execute();
      return rows.map((row) => ({
        ...publicPart(toApplication(row)),
        legacySigning: row.legacy_signing === 1,
        createdAt: row.created_at,
        liveTokens: Number(row.live_tokens),
      }));
    },
    async setAccessLevel(consumerKey, level) {
      const result = await db
        .updateTable("applications")
        .set({ access_level: level })
        .where("consumer_key", "=", consumerKey)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async setSecret(consumerKey, secret) {
      const result = await db
        .updateTable("applications")
        .set({ consumer_secret: secret })
        .where("consumer_key", "=", consumerKey)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(consumerKey) {
      const app = await db
        .selectFrom("applications")
        .select("id")
        .where("consumer_key", "=", consumerKey)
        .executeTakeFirst();
      if (!app) return false;
      await db.deleteFrom("tokens").where("app_id", "=", app.id).execute();
      await db.deleteFrom("applications").where("id", "=", app.id).execute();
      return true;
    },
  };
}

function publicPart(app: Application & { consumerSecret: string }): Application {
  return { id: app.id, name: app.name, consumerKey: app.consumerKey, accessLevel: app.accessLevel };
}
