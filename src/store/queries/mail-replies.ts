import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** Replies by mail already posted (migration 0040). */
export interface MailReplyRepo {
  posted(userId: number, messageHash: string): Promise<boolean>;
  /** Records a posted reply (again: nothing changes), and forgets those recorded before `forgetBefore`. */
  record(userId: number, messageHash: string, at: number, forgetBefore: number): Promise<void>;
}

export function mailReplyRepo(db: Kysely<Database>): MailReplyRepo {
  return {
    async posted(userId, messageHash) {
      const row = await db
        .selectFrom("mail_replies_received")
        .select("user_id")
        .where("user_id", "=", userId)
        .where("message_hash", "=", messageHash)
        .executeTakeFirst();
      return row !== undefined;
    },
    async record(userId, messageHash, at, forgetBefore) {
      await db
        .insertInto("mail_replies_received")
        .values({ user_id: userId, message_hash: messageHash, created_at: at })
        .onConflict((oc) => oc.columns(["user_id", "message_hash"]).doNothing())
        .execute();
      await db.deleteFrom("mail_replies_received").where("created_at", "<", forgetBefore).execute();
    },
  };
}
