import type { Database } from "./schema.js";

/**
 * Every table, parents before children (the order foreign keys allow filling an empty database).
 * `kairan copy` walks this list; a table missing from it is a compile error below. A new table is
 * also tracked by change triggers or declared untracked (change-tracking.ts), or a test fails.
 */
export const TABLES_IN_DEPENDENCY_ORDER = [
  "site_keys",
  "users",
  "user_pictures",
  "applications",
  "tokens",
  "calendar_feeds",
  "sessions",
  "sign_in_devices",
  "groups",
  "memberships",
  "folders",
  "topics",
  "comments",
  "comment_counters",
  "topic_leases",
  "tasks",
  "personal_tasks",
  "files",
  "file_versions",
  "file_search_texts",
  "attachments",
  "likes",
  "favorites",
  "comment_reads",
  "item_visits",
  "group_reads",
  "notifications",
  "like_notifications",
  "mentions",
  "chat_rooms",
  "incoming_hooks",
  "chat_members",
  "chat_messages",
  "chat_attachments",
  "chat_likes",
  "chat_like_notifications",
  "event_menus",
  "facilities",
  "events",
  "event_participants",
  "event_reminders",
  "event_facilities",
  "event_exceptions",
  "personal_events",
  "personal_event_exceptions",
  "oauth_nonces",
  "oauth_temporary_credentials",
  "login_failures",
  "mail_outbox",
  "account_tokens",
  "mail_settings",
  "mail_group_settings",
  "mail_changes",
  "mail_batches",
  "mail_digest_slots",
  "audit_events",
  "site_settings",
  "totp_secrets",
  "recovery_codes",
  "two_factor_requirements",
  "oidc_links",
  "oidc_sign_ins",
  "import_keys",
  "archive_keys",
  "mail_replies_received",
  "passkeys",
  "passkey_challenges_used",
  "webhooks",
  "webhook_deliveries",
  "websub_subscriptions",
  "websub_jobs",
] as const satisfies readonly (keyof Database)[];

/**
 * Tables the database fills itself (triggers, migration 0009): not copied, since the target's
 * triggers write them as the copied rows arrive. The live event log (0018) is not copied either:
 * it holds the last hour's stream events, which a new database's streams start after.
 */
export const DERIVED_TABLES = [
  "group_changes",
  "member_changes",
  "live_events",
  // Delta sync (0054): a new database numbers its items afresh as the copied rows arrive.
  "item_changes",
  "item_change_horizons",
] as const satisfies readonly (keyof Database)[];

/** Tables of the schema that the lists above forget; must stay `never`. */
type Forgotten = Exclude<keyof Database, (typeof TABLES_IN_DEPENDENCY_ORDER)[number] | (typeof DERIVED_TABLES)[number]>;
const everyTableListed: [Forgotten] extends [never] ? true : Forgotten = true;
void everyTableListed;
