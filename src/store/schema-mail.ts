// Table shapes of notification mail (migration 0034), part of `Database` (schema.ts).
import type { ColumnType, Generated } from "kysely";
import type { MailEvent, MailItemKind } from "../domain/mail-change.js";

/** A person's notification mail settings; no row: the defaults (domain/mail-settings.ts). */
export interface MailSettingsTable {
  user_id: number;
  mode: string;
  digest_hour: number;
  personal: number;
  updated_at: number;
}

/** A group a person gets no notification mail about. */
export interface MailGroupSettingsTable {
  user_id: number;
  group_id: number;
  updated_at: number;
}

/** One change, logged for the mailer in the transaction that made it. */
export interface MailChangesTable {
  id: Generated<number>;
  group_id: number | null;
  item_kind: MailItemKind;
  item_id: number;
  actor_id: number | null;
  event: MailEvent;
  number: number | null;
  user_id: number | null;
  at: number;
  done: ColumnType<number, number | undefined, number>;
  batch_id: number | null;
}

/** One item's coalesced changes being mailed, a page of recipients at a time. */
export interface MailBatchesTable {
  id: Generated<number>;
  group_id: number;
  item_kind: MailItemKind;
  item_id: number;
  window_end: number;
  next_user_id: ColumnType<number, number | undefined, number>;
  created_at: number;
}

/** The daily digest of one local hour of one time zone. */
export interface MailDigestSlotsTable {
  zone: string;
  hour: number;
  slot_at: number;
  next_user_id: ColumnType<number, number | undefined, number>;
  done: ColumnType<number, number | undefined, number>;
}
