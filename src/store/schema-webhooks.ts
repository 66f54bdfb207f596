// Table shapes of outgoing webhooks (migration 0052), part of `Database` (schema.ts).
import type { ColumnType, Generated } from "kysely";
import type { WebhookDeliveryStatus } from "../domain/webhook.js";

/** A registered webhook: a group's (group_id) or a person's own (group_id null). */
export interface WebhooksTable {
  id: Generated<number>;
  group_id: number | null;
  /** Who made it; null for the operator (the command line). */
  owner_id: number | null;
  url: string;
  /** The signing secret, sealed (auth/secret-box.ts). */
  secret: string;
  /** Bit mask of domain/webhook.ts WEBHOOK_EVENTS. */
  events: number;
  created_at: number;
  disabled_at: number | null;
  failures: ColumnType<number, number | undefined, number>;
}

/** One delivery: the queue and the log at once. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  message_id: string;
  event: string;
  group_id: number | null;
  item_kind: string;
  item_id: number;
  number: number | null;
  actor_id: number | null;
  changed_at: number;
  payload: string | null;
  created_at: number;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  claimed_until: number | null;
  last_attempt_at: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  last_error: string | null;
}
