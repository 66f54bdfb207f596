import type { Insertable, Kysely, Selectable } from "kysely";
import type { Database, MailOutboxTable } from "../schema.js";
import type { Engine } from "./engine.js";
import { leaseQueue } from "./lease-queue.js";

/** A message as the outbox stores it (migration 0032). */
export type NewOutboxMail = Omit<
  Insertable<MailOutboxTable>,
  "id" | "status" | "attempts" | "claimed_until" | "sent_at" | "last_error"
>;

/** A stored message, as the sender claims it. */
export type OutboxMail = Selectable<MailOutboxTable>;

/** What `mail outbox` and the tests read of a message besides its body. */
export type OutboxStatus = Pick<
  OutboxMail,
  | "id"
  | "message_id"
  | "kind"
  | "to_address"
  | "subject"
  | "created_at"
  | "status"
  | "attempts"
  | "next_attempt_at"
  | "claimed_until"
  | "sent_at"
  | "last_error"
>;

/** How many messages of each status the outbox holds. */
export interface OutboxCounts {
  readonly queued: number;
  readonly sent: number;
  readonly failed: number;
}

/** The mail outbox: messages written with the change that caused them, delivered after commit. */
export interface MailOutboxRepo {
  /** Writes one message to send; returns its row id. */
  insert(mail: NewOutboxMail): Promise<number>;
  /** Writes many messages with few statements (a post that mails every member of a large group). */
  insertMany(mails: readonly NewOutboxMail[]): Promise<void>;
  /**
   * The earliest next attempt among queued messages no live claim holds (undefined: none): the
   * sender's cheap look before it claims (a read, not a write).
   */
  nextAttemptAt(now: number): Promise<number | undefined>;
  /**
   * Claims up to `limit` due messages until `until`, oldest first, in one statement. On PostgreSQL
   * the rows are locked with SKIP LOCKED, so two processes claiming at once get different rows.
   */
  claimDue(now: number, until: number, limit: number): Promise<OutboxMail[]>;
  /** Claims the queued message `messageId` (`mail send-test` delivers its own at once). */
  claimOne(messageId: string, now: number, until: number): Promise<OutboxMail | undefined>;
  /** Moves the claim of the still-queued rows among `ids` to `until` (a long delivery keeps them). */
  extendClaims(ids: readonly number[], until: number): Promise<void>;
  /** Gives up the claim of the still-queued rows among `ids` (a sender stopping before sending them). */
  releaseClaims(ids: readonly number[]): Promise<void>;
  /** Gives up every claim (SQLite at start: one process sends, so any claim is a stopped process's). */
  releaseAllClaims(): Promise<number>;
  /** Records delivery: one attempt more, sent at `at`, no claim. */
  markSent(ids: readonly number[], at: number): Promise<void>;
  /** Records a failed attempt: the next one at `nextAt`, or (undefined) none: the message failed. */
  markAttemptFailed(id: number, error: string, nextAt: number | undefined): Promise<void>;
  /** Deletes sent messages written before `sentBefore` and failed ones before `failedBefore`; returns how many. */
  deleteFinished(sentBefore: number, failedBefore: number): Promise<number>;
  /** Messages by status (the queue gauge reads `queued`). */
  counts(): Promise<OutboxCounts>;
  /** One message's state by Message-ID. */
  statusOf(messageId: string): Promise<OutboxStatus | undefined>;
}

/** Rows per INSERT: 12 values each stays far below SQLite's 32,766 bound parameters. */
const INSERT_CHUNK = 500;

const STATUS_COLUMNS = [
  "id",
  "message_id",
  "kind",
  "to_address",
  "subject",
  "created_at",
  "status",
  "attempts",
  "next_attempt_at",
  "claimed_until",
  "sent_at",
  "last_error",
] as const;

/** The outbox queries over a connection or transaction. */
export function mailOutboxRepo(db: Kysely<Database>, engine: Engine): MailOutboxRepo {
  const lease = leaseQueue(db, engine, "mail_outbox", true);
  return {
    nextAttemptAt: lease.nextAttemptAt,
    claimDue: lease.claimDue,
    releaseClaims: lease.releaseClaims,
    releaseAllClaims: lease.releaseAllClaims,
    async insert(mail) {
      const row = await db.insertInto("mail_outbox").values(mail).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },
    async insertMany(mails) {
      for (let start = 0; start < mails.length; start += INSERT_CHUNK)
        await db
          .insertInto("mail_outbox")
          .values(mails.slice(start, start + INSERT_CHUNK))
          .execute();
    },
    async claimOne(messageId, now, until) {
      return db
        .updateTable("mail_outbox")
        .set({ claimed_until: until })
        .where("message_id", "=", messageId)
        .where("status", "=", "queued")
        .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", now)]))
        .returningAll()
        .executeTakeFirst();
    },
    async extendClaims(ids, until) {
      if (ids.length === 0) return;
      await db
        .updateTable("mail_outbox")
        .set({ claimed_until: until })
        .where("id", "in", ids)
        .where("status", "=", "queued")
        .execute();
    },
    async markSent(ids, at) {
      if (ids.length === 0) return;
      await db
        .updateTable("mail_outbox")
        .set((eb) => ({
          status: "sent",
          sent_at: at,
          attempts: eb("attempts", "+", 1),
          claimed_until: null,
          last_error: null,
        }))
        .where("id", "in", ids)
        .execute();
    },
    async markAttemptFailed(id, error, nextAt) {
      await db
        .updateTable("mail_outbox")
        .set((eb) => ({
          status: nextAt === undefined ? "failed" : "queued",
          attempts: eb("attempts", "+", 1),
          next_attempt_at: nextAt ?? eb.ref("next_attempt_at"),
          claimed_until: null,
          last_error: error,
        }))
        .where("id", "=", id)
        .execute();
    },
    async deleteFinished(sentBefore, failedBefore) {
      const result = await db
        .deleteFrom("mail_outbox")
        .where((eb) =>
          eb.or([
            eb.and([eb("status", "=", "sent"), eb("created_at", "<", sentBefore)]),
            eb.and([eb("status", "=", "failed"), eb("created_at", "<", failedBefore)]),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async counts() {
      const rows = await db
        .selectFrom("mail_outbox")
        .select((eb) => ["status", eb.fn.countAll<number>().as("n")])
        .groupBy("status")
        .execute();
      const of = (status: string) => Number(rows.find((row) => row.status === status)?.n ?? 0);
      return { queued: of("queued"), sent: of("sent"), failed: of("failed") };
    },
    async statusOf(messageId) {
      return db.selectFrom("mail_outbox").select(STATUS_COLUMNS).where("message_id", "=", messageId).executeTakeFirst();
    },
  };
}
