// The mailer's bookkeeping (migration 0034): which logged changes are due, the batches of one
// item's coalesced changes, and the daily digest slots. Every step that claims work is a
// compare-and-set on the row that records it, so two processes never mail the same thing: on
// PostgreSQL the second one's update waits for the first's commit and then matches nothing.
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { MailEvent, MailItemKind } from "../../domain/mail-change.js";

/** An item with changes waiting for a batch, and its first such change. */
export interface DueItem {
  readonly groupId: number;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
  readonly firstAt: number;
}

/** One item's coalesced changes being mailed; recipients after `nextUserId` are still to go. */
export interface MailBatch {
  readonly id: number;
  readonly groupId: number;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
  readonly windowEnd: number;
  readonly nextUserId: number;
}

/** A logged change for one person (a mention, an assignment, a direct message). */
export interface PersonalChange {
  readonly id: number;
  readonly groupId: number | null;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
  readonly actorId: number | null;
  readonly event: MailEvent;
  readonly number: number | null;
  readonly userId: number;
  readonly at: number;
}

/** The digest of one local hour of one zone ("" = the site's). */
export interface DigestSlot {
  readonly zone: string;
  readonly hour: number;
  readonly slotAt: number;
  readonly nextUserId: number;
  readonly done: boolean;
}

/** The mailer's bookkeeping queries. */
export interface MailWorkRepo {
  /** Items whose first waiting change is at or before `before`, oldest first. */
  dueItems(before: number, limit: number): Promise<DueItem[]>;
  /**
   * Opens a batch of the item's waiting changes up to `windowEnd`; undefined when another process
   * took them first (the caller's transaction then holds nothing of it).
   */
  openBatch(item: DueItem, windowEnd: number, at: number): Promise<number | undefined>;
  /** Marks the item's waiting changes up to `windowEnd` done without mailing them. */
  settle(item: DueItem, windowEnd: number): Promise<void>;
  /** Open batches, oldest first. */
  batches(limit: number): Promise<MailBatch[]>;
  /** Moves a batch's cursor from `from` to `to`; false when it was not at `from` (someone else moved it). */
  advanceBatch(id: number, from: number, to: number): Promise<boolean>;
  /** Ends a batch whose cursor is at `from`; false when it was not. */
  closeBatch(id: number, from: number): Promise<boolean>;
  /** Personal changes of an item between two times (the coalesced message leaves out what they told). */
  personalOf(itemKind: MailItemKind, itemId: number, from: number, to: number): Promise<PersonalChange[]>;
  /** Waiting personal changes: chat ones written at or before `chatBefore`, the others at or before `now`. */
  duePersonal(now: number, chatBefore: number, limit: number): Promise<PersonalChange[]>;
  /** Marks waiting changes done; returns how many were still waiting. */
  markDone(ids: readonly number[]): Promise<number>;
  /** Forgets changes done before `before`. */
  prune(before: number): Promise<void>;
  /** Every digest slot row. */
  slots(): Promise<DigestSlot[]>;
  /** Records the new slot of (zone, hour); `previous`: the slot the row must still hold (undefined: no row yet). */
  startSlot(slot: DigestSlot, previous: number | undefined): Promise<boolean>;
  /** Moves a slot's cursor from `from` to `to` (and marks it done); false when it was not at `from`. */
  advanceSlot(slot: DigestSlot, from: number, to: number, done: boolean): Promise<boolean>;
}

/** The bookkeeping queries over a connection or transaction. */
export function mailWorkRepo(db: Kysely<Database>): MailWorkRepo {
  return {
    async dueItems(before, limit) {
      const rows = await db
        .selectFrom("mail_changes")
        .select(["group_id", "item_kind", "item_id", (eb) => eb.fn.min("at").as("first_at")])
        .where("done", "=", 0)
        .where("user_id", "is", null)
        .groupBy(["group_id", "item_kind", "item_id"])
        .having((eb) => eb.fn.min("at"), "<=", before)
        .orderBy("first_at")
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        groupId: row.group_id ?? 0,
        itemKind: row.item_kind,
        itemId: row.item_id,
        firstAt: Number(row.first_at),
      }));
    },
    async openBatch(item, windowEnd, at) {
      const batch = await db
        .insertInto("mail_batches")
        .values({
          group_id: item.groupId,
          item_kind: item.itemKind,
          item_id: item.itemId,
          window_end: windowEnd,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const taken = await db
        .updateTable("mail_changes")
        .set({ done: 1, batch_id: batch.id })
        .where("done", "=", 0)
        .where("user_id", "is", null)
        .where("item_kind", "=", item.itemKind)
        .where("item_id", "=", item.itemId)
        .where("at", "<=", windowEnd)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) return batch.id;
      await db.deleteFrom("mail_batches").where("id", "=", batch.id).execute();
      return undefined;
    },
    async settle(item, windowEnd) {
      await db
        .updateTable("mail_changes")
        .set({ done: 1 })
        .where("done", "=", 0)
        .where("user_id", "is", null)
        .where("item_kind", "=", item.itemKind)
        .where("item_id", "=", item.itemId)
        .where("at", "<=", windowEnd)
        .execute();
    },
    async batches(limit) {
      const rows = await db.selectFrom("mail_batches").selectAll().orderBy("id").limit(limit).execute();
      return rows.map((row) => ({
        id: row.id,
        groupId: row.group_id,
        itemKind: row.item_kind,
        itemId: row.item_id,
        windowEnd: row.window_end,
        nextUserId: row.next_user_id,
      }));
    },
    async advanceBatch(id, from, to) {
      const result = await db
        .updateTable("mail_batches")
        .set({ next_user_id: to })
        .where("id", "=", id)
        .where("next_user_id", "=", from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async closeBatch(id, from) {
      const result = await db
        .deleteFrom("mail_batches")
        .where("id", "=", id)
        .where("next_user_id", "=", from)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async personalOf(itemKind, itemId, from, to) {
      const rows = await db
        .selectFrom("mail_changes")
        .selectAll()
        .where("item_kind", "=", itemKind)
        .where("item_id", "=", itemId)
        .where("at", ">=", from)
        .where("at", "<=", to)
        .where("user_id", "is not", null)
        .execute();
      return rows.map(toPersonal);
    },
    async duePersonal(now, chatBefore, limit) {
      const rows = await db
        .selectFrom("mail_changes")
        .selectAll()
        .where("done", "=", 0)
        .where("at", "<=", now)
        .where("user_id", "is not", null)
        .where((eb) => eb.or([eb("event", "<>", "chat"), eb("at", "<=", chatBefore)]))
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map(toPersonal);
    },
    async markDone(ids) {
      if (ids.length === 0) return 0;
      const result = await db
        .updateTable("mail_changes")
        .set({ done: 1 })
        .where("id", "in", ids)
        .where("done", "=", 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    async prune(before) {
      await db.deleteFrom("mail_changes").where("done", "=", 1).where("at", "<", before).execute();
    },
    async slots() {
      const rows = await db.selectFrom("mail_digest_slots").selectAll().execute();
      return rows.map((row) => ({
        zone: row.zone,
        hour: row.hour,
        slotAt: row.slot_at,
        nextUserId: row.next_user_id,
        done: row.done === 1,
      }));
    },
    async startSlot(slot, previous) {
      const values = { slot_at: slot.slotAt, next_user_id: 0, done: slot.done ? 1 : 0 };
      if (previous === undefined) {
        const result = await db
          .insertInto("mail_digest_slots")
          .values({ zone: slot.zone, hour: slot.hour, ...values })
          .onConflict((oc) => oc.columns(["zone", "hour"]).doNothing())
          .executeTakeFirst();
        return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
      }
      const result = await db
        .updateTable("mail_digest_slots")
        .set(values)
        .where("zone", "=", slot.zone)
        .where("hour", "=", slot.hour)
        .where("slot_at", "=", previous)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async advanceSlot(slot, from, to, done) {
      const result = await db
        .updateTable("mail_digest_slots")
        .set({ next_user_id: to, done: done ? 1 : 0 })
        .where("zone", "=", slot.zone)
        .where("hour", "=", slot.hour)
        .where("slot_at", "=", slot.slotAt)
        .where("next_user_id", "=", from)
        .where("done", "=", 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

function toPersonal(row: {
  id: number;
  group_id: number | null;
  item_kind: MailItemKind;
  item_id: number;
  actor_id: number | null;
  event: MailEvent;
  number: number | null;
  user_id: number | null;
  at: number;
}): PersonalChange {
  return {
    id: row.id,
    groupId: row.group_id,
    itemKind: row.item_kind,
    itemId: row.item_id,
    actorId: row.actor_id,
    event: row.event,
    number: row.number,
    userId: row.user_id ?? 0,
    at: row.at,
  };
}
