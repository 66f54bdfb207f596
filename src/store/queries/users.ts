import type { Kysely, Selectable } from "kysely";
import type { User } from "../../domain/user.js";
import type { Database, UsersTable } from "../schema.js";

/** Users. */
export interface UserRepo {
  insert(user: Omit<User, "id"> & { passwordHash: string; createdAt: number }): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  /** With the password hash, for sign-in only. */
  findCredentialsByEmail(email: string): Promise<(User & { passwordHash: string }) | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  list(): Promise<User[]>;
}

/** Maps a users row to the domain type. */
export function toUser(
  row: Pick<Selectable<UsersTable>, "id" | "name" | "email" | "family_kana" | "given_kana">,
): User {
  return { id: row.id, name: row.name, email: row.email, familyKana: row.family_kana, givenKana: row.given_kana };
}

/** Users queries. */
export function userRepo(db: Kysely<Database>): UserRepo {
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
      return row && { ...toUser(row), passwordHash: row.password_hash };
    },
    async findByEmail(email) {
      const row = await db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase()).executeTakeFirst();
      return row && toUser(row);
    },
    async list() {
      const rows = await db.selectFrom("users").selectAll().orderBy("id").execute();
      return rows.map(toUser);
    },
  };
}
