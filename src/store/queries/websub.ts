// WebSub (migration 0057): the verified subscriptions, and the hub's queue of verifications and
// distributions (claimed with a lease, like the webhook deliveries).
import type { Kysely, Selectable } from "kysely";
import type { Database } from "../schema.js";
import type { WebSubJobKind, WebSubJobsTable, WebSubSubscriptionsTable } from "../schema-websub.js";
import type { Engine } from "./engine.js";
import { leaseQueue } from "./lease-queue.js";

/** A verified subscription (the secret still sealed). */
export type WebSubSubscriptionRow = Selectable<WebSubSubscriptionsTable>;

/** A queued job of the hub. */
export type WebSubJobRow = Selectable<WebSubJobsTable>;

/** What a job is made of. */
export interface WebSubJobInput {
  readonly kind: WebSubJobKind;
  readonly userId: number;
  readonly tokenId: number;
  readonly keyHash: string;
  readonly topic: string;
  readonly callback: string;
  readonly secret: string | null;
  readonly leaseSeconds: number;
  readonly contentHash: string | null;
  readonly body: string | null;
  readonly at: number;
}

/** The WebSub queries. */
export interface WebSubRepo {
  /** Queues a job due at once; returns its id. */
  enqueue(job: WebSubJobInput): Promise<number>;
  /** Queues a distribution in place of the same subscription's distributions not yet claimed. */
  replaceDelivery(job: WebSubJobInput): Promise<number>;
  nextAttemptAt(now: number): Promise<number | undefined>;
  claimDue(now: number, until: number, limit: number): Promise<WebSubJobRow[]>;
  /** Gives back every claim (at start: a stopped process's); returns how many. */
  releaseAllClaims(): Promise<number>;
  /** Ends a job (done, or given up). */
  finish(id: number): Promise<void>;
  /** Tries the job again at `at`. */
  retry(id: number, at: number, error: string): Promise<void>;
  /** Makes (or renews) the subscription a verified subscribe job asked for. */
  activate(job: WebSubJobRow, expiresAt: number): Promise<void>;
  find(userId: number, keyHash: string): Promise<WebSubSubscriptionRow | undefined>;
  findById(id: number): Promise<WebSubSubscriptionRow | undefined>;
  /** Ends a subscription and its queued distributions; false when there was none. */
  remove(userId: number, keyHash: string): Promise<boolean>;
  /** Every subscription, oldest first. */
  all(): Promise<WebSubSubscriptionRow[]>;
  /** One person's subscriptions, oldest first. */
  ofUser(userId: number): Promise<WebSubSubscriptionRow[]>;
  /** Subscriptions and subscribe requests of one person. */
  countOfUser(userId: number): Promise<number>;
  /** Subscriptions and queued jobs: zero means the hub has nothing to look at. */
  workCount(): Promise<number>;
  /** Remembers what the subscriber's feed was at its view version. */
  setSeen(id: number, version: string, hash: string): Promise<void>;
}

/** WebSub queries. */
export function websubRepo(db: Kysely<Database>, engine: Engine): WebSubRepo {
  const insert = async (job: WebSubJobInput): Promise<number> => {
    const row = await db
      .insertInto("websub_jobs")
      .values({
        kind: job.kind,
        user_id: job.userId,
        token_id: job.tokenId,
        key_hash: job.keyHash,
        topic: job.topic,
        callback: job.callback,
        secret: job.secret,
        lease_seconds: job.leaseSeconds,
        content_hash: job.contentHash,
        body: job.body,
        next_attempt_at: job.at,
        created_at: job.at,
        claimed_until: null,
        last_error: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const removeQueued = (userId: number, keyHash: string) =>
    db
      .deleteFrom("websub_jobs")
      .where("user_id", "=", userId)
      .where("key_hash", "=", keyHash)
      .where("kind", "=", "deliver")
      .where("claimed_until", "is", null)
      .execute();
  const lease = leaseQueue(db, engine, "websub_jobs", false);
  return {
    nextAttemptAt: lease.nextAttemptAt,
    claimDue: lease.claimDue,
    releaseAllClaims: lease.releaseAllClaims,
    enqueue: insert,
    async replaceDelivery(job) {
      await removeQueued(job.userId, job.keyHash);
      return insert(job);
    },
    async finish(id) {
      await db.deleteFrom("websub_jobs").where("id", "=", id).execute();
    },
    async retry(id, at, error) {
      await db
        .updateTable("websub_jobs")
        .set((eb) => ({
          attempts: eb("attempts", "+", 1),
          next_attempt_at: at,
          claimed_until: null,
          last_error: error.slice(0, 300),
        }))
        .where("id", "=", id)
        .execute();
    },
    async activate(job, expiresAt) {
      const values = {
        token_id: job.token_id,
        topic: job.topic,
        callback: job.callback,
        secret: job.secret,
        lease_seconds: job.lease_seconds,
        expires_at: expiresAt,
        last_hash: job.content_hash,
        seen_version: null,
      };
      const updated = await db
        .updateTable("websub_subscriptions")
        .set(values)
        .where("user_id", "=", job.user_id)
        .where("key_hash", "=", job.key_hash)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      await db
        .insertInto("websub_subscriptions")
        .values({ ...values, user_id: job.user_id, key_hash: job.key_hash, created_at: job.created_at })
        .execute();
    },
    find(userId, keyHash) {
      return db
        .selectFrom("websub_subscriptions")
        .selectAll()
        .where("user_id", "=", userId)
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
    },
    findById(id) {
      return db.selectFrom("websub_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
    },
    async remove(userId, keyHash) {
      await removeQueued(userId, keyHash);
      const result = await db
        .deleteFrom("websub_subscriptions")
        .where("user_id", "=", userId)
        .where("key_hash", "=", keyHash)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    all() {
      return db.selectFrom("websub_subscriptions").selectAll().orderBy("id").execute();
    },
    ofUser(userId) {
      return db.selectFrom("websub_subscriptions").selectAll().where("user_id", "=", userId).orderBy("id").execute();
    },
    async countOfUser(userId) {
      const subscriptions = await db
        .selectFrom("websub_subscriptions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      const requests = await db
        .selectFrom("websub_jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .where("kind", "=", "subscribe")
        .executeTakeFirstOrThrow();
      return Number(subscriptions.n) + Number(requests.n);
    },
    async workCount() {
      const subscriptions = await db
        .selectFrom("websub_subscriptions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const jobs = await db
        .selectFrom("websub_jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(subscriptions.n) + Number(jobs.n);
    },
    async setSeen(id, version, hash) {
      await db
        .updateTable("websub_subscriptions")
        .set({ seen_version: version, last_hash: hash })
        .where("id", "=", id)
        .execute();
    },
  };
}
