import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { EditLease } from "../../domain/topic.js";

/** Topic edit leases. */
export interface LeaseRepo {
  find(topicId: number): Promise<EditLease | undefined>;
  put(lease: { topicId: number; userId: number; since: number; until: number }): Promise<void>;
  remove(topicId: number): Promise<void>;
}

/** Edit lease queries. */
export function leaseRepo(db: Kysely<Database>): LeaseRepo {
  return {
    async find(topicId) {
      const row = await db
        .selectFrom("topic_leases")
        .innerJoin("users", "users.id", "topic_leases.user_id")
        .select([
          "topic_leases.topic_id",
          "topic_leases.user_id",
          "users.name",
          "topic_leases.since",
          "topic_leases.until",
        ])
        .where("topic_leases.topic_id", "=", topicId)
        .executeTakeFirst();
      return (
        row && { topicId: row.topic_id, userId: row.user_id, userName: row.name, since: row.since, until: row.until }
      );
    },
    async put(lease) {
      await db
        .insertInto("topic_leases")
        .values({ topic_id: lease.topicId, user_id: lease.userId, since: lease.since, until: lease.until })
        .onConflict((oc) =>
          oc.column("topic_id").doUpdateSet({ user_id: lease.userId, since: lease.since, until: lease.until }),
        )
        .execute();
    },
    async remove(topicId) {
      await db.deleteFrom("topic_leases").where("topic_id", "=", topicId).execute();
    },
  };
}
