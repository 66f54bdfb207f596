// The mailer's log (migration 0034): one row per change, written in the change's transaction.
import type { Kysely } from "kysely";
import type { NotificationCause, NotificationEvent } from "../../domain/notification.js";
import type { Database } from "../schema.js";
import type { MailEvent, MailItemKind } from "../../domain/mail-change.js";
import { prepared } from "./prepared.js";

/** A change as the mailer reads it later. */
export interface NewMailChange {
  /** null for a direct message (a room is in no group). */
  readonly groupId: number | null;
  readonly itemKind: MailItemKind;
  readonly itemId: number;
  readonly actorId: number | null;
  readonly event: MailEvent;
  /** The comment or chat message it wrote. */
  readonly number: number | null;
  /** The one person it is for (a mention, an assignment, a direct message); null: the item's readers. */
  readonly userId: number | null;
  readonly at: number;
}

/** The log's writes. */
export interface MailChangeRepo {
  /** Logs changes (one statement). */
  append(changes: readonly NewMailChange[]): Promise<void>;
}

/**
 * What a notification fan-out says to the mailer: the change for the item's readers, or nothing
 * for a deleted comment (no message tells of one).
 */
export function mailChangeOf(event: NotificationEvent): NewMailChange | undefined {
  const { cause, item } = event;
  if (cause.kind === "commentDeleted") return undefined;
  const mailEvent: MailEvent = cause.kind === "updated" ? updateMailEvent(cause) : cause.kind;
  return {
    groupId: item.groupId,
    itemKind: item.kind,
    itemId: item.id,
    actorId: event.actorId,
    event: mailEvent,
    number: cause.kind === "comment" ? cause.number : null,
    userId: null,
    at: event.at,
  };
}

/**
 * An update's mail event: a changed text is told with the text ("edited"); else the change's own
 * name. An assignment is told to the assignee alone (logAssignment), so the others read "updated".
 */
function updateMailEvent(cause: Extract<NotificationCause, { kind: "updated" }>): MailEvent {
  if (cause.bodyChanged) return "edited";
  return cause.change === undefined || cause.change === "assigned" ? "updated" : cause.change;
}

// A type, not an interface: prepared() needs a record type.
type Values = {
  groupId: number | null;
  itemKind: MailItemKind;
  itemId: number;
  actorId: number | null;
  event: MailEvent;
  number: number | null;
  userId: number | null;
  at: number;
};

/** The one row of every write's fan-out, compiled once (Kysely's build and compile cost more than the insert). */
const insertOne = prepared<Values, unknown>(
  ["groupId", "itemKind", "itemId", "actorId", "event", "number", "userId", "at"],
  (db, v) =>
    db.insertInto("mail_changes").values({
      group_id: v.groupId,
      item_kind: v.itemKind,
      item_id: v.itemId,
      actor_id: v.actorId,
      event: v.event,
      number: v.number,
      user_id: v.userId,
      at: v.at,
    }),
);

/** The log's queries over a connection or transaction. */
export function mailChangeRepo(db: Kysely<Database>): MailChangeRepo {
  return {
    async append(changes) {
      if (changes.length === 0) return;
      if (changes.length === 1 && changes[0] !== undefined) {
        await insertOne(db, { ...changes[0] });
        return;
      }
      await db
        .insertInto("mail_changes")
        .values(
          changes.map((change) => ({
            group_id: change.groupId,
            item_kind: change.itemKind,
            item_id: change.itemId,
            actor_id: change.actorId,
            event: change.event,
            number: change.number,
            user_id: change.userId,
            at: change.at,
          })),
        )
        .execute();
    },
  };
}
