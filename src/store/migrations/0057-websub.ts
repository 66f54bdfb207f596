import type { Kysely, Migration } from "kysely";
import type { ColumnTypes } from "./columns.js";

/**
 * WebSub (issue #34, docs/api.md "WebSub"). `websub_subscriptions`: a verified subscription of a
 * callback to a feed of this site, made by a person through one token (`token_id`): its feed is
 * rendered as that caller sees it, and it ends with the token, the account or the person's access
 * to the feed. `key_hash` (SHA-256 of topic and callback) makes (user, topic, callback) one row
 * without indexing two long addresses. `last_hash` is the hash of the feed last pushed (or seen at
 * subscription), `seen_version` the caller's view version when it was rendered: a version that
 * has not moved needs no render. The secret is sealed (auth/secret-box.ts).
 * `websub_jobs`: the durable queue of what the hub sends: verifications of intent (`subscribe`,
 * `unsubscribe`) and content distributions (`deliver`, the body fixed when queued).
 */
export const websub = (t: ColumnTypes): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("websub_subscriptions")
      .addColumn("id", t.int64, (c) => t.id(c))
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("token_id", t.int64, (c) => c.notNull().references("tokens.id").onDelete("cascade"))
      .addColumn("key_hash", "text", (c) => c.notNull())
      .addColumn("topic", "text", (c) => c.notNull())
      .addColumn("callback", "text", (c) => c.notNull())
      .addColumn("secret", "text")
      .addColumn("lease_seconds", t.int32, (c) => c.notNull())
      .addColumn("expires_at", t.int64, (c) => c.notNull())
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("last_hash", "text")
      .addColumn("seen_version", "text")
      .execute();
    await db.schema
      .createIndex("websub_subscriptions_key")
      .on("websub_subscriptions")
      .columns(["user_id", "key_hash"])
      .unique()
      .execute();
    await db.schema
      .createTable("websub_jobs")
      .addColumn("id", t.int64, (c) => t.id(c))
      // subscribe | unsubscribe | deliver
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("user_id", t.int64, (c) => c.notNull().references("users.id").onDelete("cascade"))
      .addColumn("token_id", t.int64, (c) => c.notNull().references("tokens.id").onDelete("cascade"))
      .addColumn("key_hash", "text", (c) => c.notNull())
      .addColumn("topic", "text", (c) => c.notNull())
      .addColumn("callback", "text", (c) => c.notNull())
      .addColumn("secret", "text")
      .addColumn("lease_seconds", t.int32, (c) => c.notNull())
      // subscribe: the feed's hash when it was asked for; deliver: the pushed body's.
      .addColumn("content_hash", "text")
      .addColumn("body", "text")
      .addColumn("attempts", t.int32, (c) => c.notNull().defaultTo(0))
      .addColumn("next_attempt_at", t.int64, (c) => c.notNull())
      .addColumn("claimed_until", t.int64)
      .addColumn("created_at", t.int64, (c) => c.notNull())
      .addColumn("last_error", "text")
      .execute();
    await db.schema.createIndex("websub_jobs_due").on("websub_jobs").column("next_attempt_at").execute();
    await db.schema.createIndex("websub_jobs_key").on("websub_jobs").columns(["user_id", "key_hash"]).execute();
  },
});
