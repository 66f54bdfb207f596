import { type Kysely, type Selectable, sql } from "kysely";
import { LANGUAGES, type Preferences, type User } from "../../domain/user.js";
import type { Database, UsersTable } from "../schema.js";

/** Users. */
export interface UserRepo {
  insert(user: Omit<User, "id"> & { passwordHash: string; createdAt: number }): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  /** With the password hash and whether the account is disabled, for sign-in only. */
  findCredentialsByEmail(email: string): Promise<(User & { passwordHash: string; disabled: boolean }) | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** An imported placeholder that nobody has claimed yet (migration 0046); undefined for any other account. */
  findPlaceholder(id: number): Promise<User | undefined>;
  list(): Promise<User[]>;
  /** Changes what is given of an account (an operator's command); false when no user has the id. */
  update(id: number, changes: UserChanges): Promise<boolean>;
  /** Whether the account is disabled; undefined when no user has the id. */
  isDisabled(id: number): Promise<boolean | undefined>;
  /** The ids of every disabled account, in id order. */
  listDisabledIds(): Promise<number[]>;
  /** The language and time zone the user chose; undefined when no user has the id. */
  findPreferences(id: number): Promise<Preferences | undefined>;
  /** Whether any account exists (the first run's setup is offered until one does). */
  any(): Promise<boolean>;
  /** The ids of the site's administrators, in id order. */
  listAdminIds(): Promise<number[]>;
  /** The administrators whose accounts are enabled (those who can still sign in), in id order. */
  listActiveAdminIds(): Promise<number[]>;
  /** Whether the user holds the site administrator's role (false when no user has the id). */
  isSiteAdmin(id: number): Promise<boolean>;
  /**
   * One page of the accounts for the administration, in id order after `afterId`, those whose name,
   * reading or address contains `text` (case-insensitively) when it is given.
   */
  directory(query: { text?: string; afterId: number; limit: number }): Promise<DirectoryUser[]>;
}

/** An account as the administration lists it. */
export interface DirectoryUser extends User {
  readonly disabled: boolean;
  readonly admin: boolean;
  readonly createdAt: number;
}

/** What an operator may change of an account. */
export interface UserChanges {
  readonly name?: string;
  readonly familyKana?: string;
  readonly givenKana?: string;
  readonly passwordHash?: string;
  /** A time disables the account, null enables it. */
  readonly disabledAt?: number | null;
  /** The person's own choices (null: the browser's language, the server's time zone). */
  readonly lang?: string | null;
  readonly timeZone?: string | null;
  /** A confirmed new address (already normalised and checked free). */
  readonly email?: string;
  /** The site administrator's mark (the first run's account). */
  readonly siteAdmin?: boolean;
  /** A time marks an imported placeholder, null a claimed (or ordinary) account (migration 0046). */
  readonly placeholderAt?: number | null;
}

/** Maps the preference columns of a users row (a value no version wrote reads as no choice). */
export function toPreferences(row: Pick<Selectable<UsersTable>, "lang" | "time_zone">): Preferences {
  return { lang: LANGUAGES.find((lang) => lang === row.lang) ?? null, timeZone: row.time_zone };
}

/** Maps a users row to the domain type. */
export function toUser(
  row: Pick<Selectable<UsersTable>, "id" | "name" | "email" | "family_kana" | "given_kana">,
): User {
  return { id: row.id, name: row.name, email: row.email, familyKana: row.family_kana, givenKana: row.given_kana };
}

/** Users queries. */
export function userRepo(db: Kysely<Database>): UserRepo {
  const isDisabled = async (id: number) => {
    const row = await db.selectFrom("users").select("disabled_at").where("id", "=", id).executeTakeFirst();
    return row && row.disabled_at !== null;
  };
  return {
    async insert(user) {
      const row = await db
        .insertInto("users")
        .values({
          name: user.name,
          email: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          family_kana: user.familyKana,
          given_kana: user.givenKana,
          created_at: user.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },
    async findById(id) {
      const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      return row && toUser(row);
    },
    async findCredentialsByEmail(email) {
      const row = await db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
      return row && { ...toUser(row), passwordHash: row.password_hash, disabled: row.disabled_at !== null };
    },
    async findByEmail(email) {
      const row = await db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
      return row && toUser(row);
    },
    async findPlaceholder(id) {
      const row = await db
        .selectFrom("users")
        .selectAll()
        .where("id", "=", id)
        .where("placeholder_at", "is not", null)
        .executeTakeFirst();
      return row && toUser(row);
    },
    async list() {
      const rows = await db.selectFrom("users").selectAll().orderBy("id").execute();
      return rows.map(toUser);
    },
    async update(id, changes) {
      const set = {
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...(changes.familyKana === undefined ? {} : { family_kana: changes.familyKana }),
        ...(changes.givenKana === undefined ? {} : { given_kana: changes.givenKana }),
        ...(changes.passwordHash === undefined ? {} : { password_hash: changes.passwordHash }),
        ...(changes.disabledAt === undefined ? {} : { disabled_at: changes.disabledAt }),
        ...(changes.lang === undefined ? {} : { lang: changes.lang }),
        ...(changes.timeZone === undefined ? {} : { time_zone: changes.timeZone }),
        ...(changes.email === undefined ? {} : { email: changes.email.toLowerCase() }),
        ...(changes.siteAdmin === undefined ? {} : { site_admin: changes.siteAdmin ? 1 : 0 }),
        ...(changes.placeholderAt === undefined ? {} : { placeholder_at: changes.placeholderAt }),
      };
      if (Object.keys(set).length === 0) return (await isDisabled(id)) !== undefined;
      const result = await db.updateTable("users").set(set).where("id", "=", id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    isDisabled,
    async listDisabledIds() {
      const rows = await db
        .selectFrom("users")
        .select("id")
        .where("disabled_at", "is not", null)
        .orderBy("id")
        .execute();
      return rows.map((row) => row.id);
    },
    async findPreferences(id) {
      const row = await db.selectFrom("users").select(["lang", "time_zone"]).where("id", "=", id).executeTakeFirst();
      return row && toPreferences(row);
    },
    async any() {
      return (await db.selectFrom("users").select("id").limit(1).executeTakeFirst()) !== undefined;
    },
    async listAdminIds() {
      const rows = await db.selectFrom("users").select("id").where("site_admin", "=", 1).orderBy("id").execute();
      return rows.map((row) => row.id);
    },
    async listActiveAdminIds() {
      const rows = await db
        .selectFrom("users")
        .select("id")
        .where("site_admin", "=", 1)
        .where("disabled_at", "is", null)
        .orderBy("id")
        .execute();
      return rows.map((row) => row.id);
    },
    async isSiteAdmin(id) {
      const row = await db.selectFrom("users").select("site_admin").where("id", "=", id).executeTakeFirst();
      return row?.site_admin === 1;
    },
    async directory({ text, afterId, limit }) {
      let query = db.selectFrom("users").selectAll().where("id", ">", afterId);
      if (text !== undefined && text !== "") {
        const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
            eb(sql`lower(email)`, "like", sql`${pattern} escape '\\'`),
            eb(sql`lower(family_kana || given_kana)`, "like", sql`${pattern} escape '\\'`),
          ]),
        );
      }
      const rows = await query.orderBy("id").limit(limit).execute();
      return rows.map((row) => ({
        ...toUser(row),
        disabled: row.disabled_at !== null,
        admin: row.site_admin === 1,
        createdAt: row.created_at,
      }));
    },
  };
}
