// Table shapes of WebSub (migration 0057), part of `Database` (schema.ts).
import type { ColumnType, Generated } from "kysely";

/** What a queued WebSub job does. */
export type WebSubJobKind = "subscribe" | "unsubscribe" | "deliver";

/** A verified subscription of a callback to a feed, as the person who made it sees the feed. */
export interface WebSubSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  token_id: number;
  key_hash: string;
  topic: string;
  callback: string;
  /** The signing secret, sealed (auth/secret-box.ts); null when none was given. */
  secret: string | null;
  lease_seconds: number;
  expires_at: number;
  created_at: number;
  last_hash: string | null;
  seen_version: string | null;
}

/** One job of the hub: a verification of intent or a distribution. */
export interface WebSubJobsTable {
  id: Generated<number>;
  kind: WebSubJobKind;
  user_id: number;
  token_id: number;
  key_hash: string;
  topic: string;
  callback: string;
  secret: string | null;
  lease_seconds: number;
  content_hash: string | null;
  body: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  claimed_until: number | null;
  created_at: number;
  last_error: string | null;
}
