import { type Kysely, sql } from "kysely";
import type { User } from "../../domain/user.js";
import type { PageWindow } from "../page-window.js";
import type { Database } from "../schema.js";

/** A person of the address book, with when their account began (the entry's `updated`). */
export interface AddressBookPerson extends User {
  readonly createdAt: number;
}

/** The caller's address book: people who share a group with them. */
export interface AddressBookRepo {
  /**
   * The people who have joined a group the caller has joined, the caller included, whose name or
   * reading contains `name` (any letter case) when given: those with a reading first, by reading,
   * then the others by name. Disabled accounts are left out.
   */
  list(callerId: number, name: string | undefined, page: PageWindow): Promise<AddressBookPerson[]>;
}

/** Address book queries. */
export function addressBookRepo(db: Kysely<Database>): AddressBookRepo {
  return {
    async list(callerId, name, page) {
      const partners = db
        .selectFrom("memberships as mine")
        .innerJoin("memberships as theirs", "theirs.group_id", "mine.group_id")
        .select("theirs.user_id")
        .where("mine.user_id", "=", callerId)
        .where("mine.status", "=", "JOIN")
        .where("theirs.status", "=", "JOIN");
      let query = db
        .selectFrom("users")
        .select(["id", "name", "email", "family_kana", "given_kana", "created_at"])
        .where((eb) => eb.or([eb("id", "=", callerId), eb("id", "in", partners)]))
        .where("disabled_at", "is", null);
      if (name !== undefined && name !== "") {
        const pattern = `%${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(sql`lower(name)`, "like", sql`${pattern} escape '\\'`),
            eb(sql`lower(family_kana || given_kana)`, "like", sql`${pattern} escape '\\'`),
            eb(sql`lower(family_kana || ' ' || given_kana)`, "like", sql`${pattern} escape '\\'`),
          ]),
        );
      }
      const rows = await query
        .orderBy(sql`case when family_kana = '' and given_kana = '' then 1 else 0 end`)
        .orderBy("family_kana")
        .orderBy("given_kana")
        .orderBy("name")
        .orderBy("id")
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        familyKana: row.family_kana,
        givenKana: row.given_kana,
        createdAt: row.created_at,
      }));
    },
  };
}
