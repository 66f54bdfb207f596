/**
 * What migration 0009 tracks: which writes move which change version (group_changes,
 * member_changes). Both engines build their triggers from these lists, so they behave alike.
 * A feed of user U is built only from rows of U's joined groups, from U's own rows and from user
 * names, so the versions of (U, U's joined groups, the directory row) move whenever a feed of U
 * could read something else (`ViewVersion` below; docs/architecture.md "The feed cache and change versions").
 *
 * Group rows (group_changes.group_id), bumped on INSERT, UPDATE and DELETE:
 * - folders, topics, comments, attachments, likes, tasks, files: their `group_id` (every member
 *   sees titles, bodies, authors, folder names, comment lists, like counts, files);
 * - file_versions: the group of their file (file name, size, history);
 * - groups: `id` (name, summary; a new group);
 * - memberships: `group_id` (the member list) and the member row of `user_id` (below).
 * Member rows (member_changes.user_id), per-caller state:
 * - memberships: join, leave, manager and notify settings: the joined groups (which group
 *   versions count) and the notification feed's muted groups;
 * - favorites, comment_reads: `cblStar:set`, the favorites feed, `unconfirmed=true` of comments;
 * - notifications, like_notifications: only an UPDATE that confirms, shown by `cbl:confirmed` of
 *   tasks and of both notification feeds (and `cblNtf:lastAccess`). A confirmation writes the
 *   confirmation time (last_access_at, confirmed_at), which nothing else updates: the trigger
 *   watches that column, so the upsert of a 5,000-member fan-out (or of a like) does not even
 *   consider it. Watching `confirmed` instead made SQLite run it for each of the 5,000 rows to find
 *   its condition false: about 6 % of a fan-out's CPU, measured. The fan-out and the like happen in
 *   the transaction of the item write, which already moves the group.
 * The directory row (group_changes.group_id = 0, counted for everyone): an UPDATE of a user's
 * name, e-mail or readings. Names appear in every group the user ever wrote in, not only in the
 * groups they are still in, so the change is counted for every caller (names rarely change).
 * Not tracked: UNTRACKED_TABLES below, each with its reason.
 * Frozen with migration 0009: a later change of what is tracked is a new migration.
 */
export const CHANGE_TRACKING = {
  /** Rows naming their group in `group_id`. */
  groupRows: ["folders", "topics", "comments", "attachments", "likes", "tasks", "files"],
  /** Rows naming their user in `user_id`: per-caller state. */
  memberRows: ["favorites", "comment_reads"],
  /** Confirmations move the owner's member row; each table's confirmation time column. */
  confirmations: [
    { table: "notifications", column: "last_access_at" },
    { table: "like_notifications", column: "confirmed_at" },
  ],
  /** User columns that feeds show. */
  userColumns: ["name", "email", "family_kana", "given_kana"],
} as const;

/**
 * Migration 0015: confirming a mention notification moves its user's row, as for notifications
 * (writing one happens in the transaction of the item write, which moves the group already).
 */
export const MENTION_CONFIRMATION = { table: "mentions", column: "last_access_at" } as const;

/**
 * Migration 0021: the tables of group events, each naming its group in `group_id` (the child
 * tables carry their event's), tracked like the group rows above.
 */
export const EVENT_GROUP_ROWS = [
  "event_menus",
  "facilities",
  "events",
  "event_participants",
  "event_facilities",
  "event_exceptions",
] as const;

/**
 * Migration 0027: a chat message's like notification moves its owner's row on every write (a room
 * is in no group, so no group version covers the likers, the text or the room's title it shows).
 */
export const CHAT_LIKE_NOTIFICATIONS = "chat_like_notifications";

/**
 * Migration 0029: a personal event moves its owner's row on every write (the personal schedule is
 * kept by the feed cache; no group version covers a personal event).
 */
export const PERSONAL_EVENTS = "personal_events";

/** The group_changes row every caller's version counts: user names and e-mail addresses. */
export const DIRECTORY_ROW = 0;

/** The events a row trigger fires on. */
export const ROW_EVENTS = ["INSERT", "UPDATE", "DELETE"] as const;

/** A trigger's event. */
export type TriggerEvent = (typeof ROW_EVENTS)[number];

/**
 * Every tracked table and the events its triggers fire on (migration 0009): the lists above, plus
 * groups, file_versions and memberships (every event) and the users' rename trigger.
 */
export const TRACKED_TABLES: ReadonlyMap<string, readonly TriggerEvent[]> = new Map<string, readonly TriggerEvent[]>([
  ...[
    ...CHANGE_TRACKING.groupRows,
    ...CHANGE_TRACKING.memberRows,
    "groups",
    "file_versions",
    "memberships",
    ...EVENT_GROUP_ROWS,
    CHAT_LIKE_NOTIFICATIONS,
    PERSONAL_EVENTS,
  ].map((table) => [table, ROW_EVENTS] as const),
  ...CHANGE_TRACKING.confirmations.map(({ table }) => [table, ["UPDATE"]] as const),
  [MENTION_CONFIRMATION.table, ["UPDATE"]],
  ["users", ["UPDATE"]],
]);

/**
 * Tables no change trigger watches, and why no cached feed can go stale by it. Every table of the
 * database is tracked (TRACKED_TABLES) or listed here; test/store/change-coverage.test.ts checks a
 * migrated database of each engine against both, so a new table cannot silently serve stale feeds.
 */
export const UNTRACKED_TABLES: Readonly<Record<string, string>> = {
  comment_counters: "no feed shows them; comment numbers come from the comments",
  topic_leases: "only the web's topic page shows a lease, and it is never cached",
  tokens: "authentication reads them on every request; the cache key holds the caller and access level",
  applications: "authentication reads them on every request; the cache key holds the access level",
  sessions: "the web's sign-in; no feed reads them",
  oauth_nonces: "OAuth replay protection; no feed reads them",
  oauth_temporary_credentials: "the OAuth handshake; no feed reads them",
  login_failures: "sign-in throttling; no feed reads them",
  sign_in_devices: "sign-in throttling's trusted browsers; no feed reads them",
  mail_outbox: "messages waiting for or done with delivery; no feed reads them",
  site_keys: "the site's signing keys; no feed reads them",
  account_tokens: "one-time links of accounts (reset, address change, setup); no feed reads them",
  group_changes: "the versions themselves, written by the triggers",
  member_changes: "the versions themselves, written by the triggers",
  kysely_migration: "the migrator's bookkeeping",
  user_pictures: "no feed shows a picture; its own answers carry an ETag that changes with it",
  kysely_migration_lock: "the migrator's bookkeeping",
  // Search (migration 0014).
  file_search_texts: "written with its file and version, whose own triggers move the group's version",
  // Chat (migration 0017): its feeds (rooms, messages, M_CHAT notifications) are never kept by the feed cache.
  chat_rooms: "chat feeds are built afresh on every request, outside the feed cache",
  chat_members: "chat feeds are built afresh on every request, outside the feed cache",
  chat_messages: "chat feeds are built afresh on every request, outside the feed cache",
  chat_attachments: "chat feeds are built afresh on every request, outside the feed cache",
  chat_likes: "chat feeds and /api/good/V2 of a chat message are built afresh on every request, outside the feed cache",
  // Personal events' exceptions (migration 0023).
  personal_event_exceptions:
    "written only together with their event's personal_events row, whose triggers move the owner's version (migration 0029)",
  // Personal ToDo (migration 0024): `/api/task/V2` is built afresh on every request.
  personal_tasks: "the personal ToDo feed is built afresh on every request, outside the feed cache",
  // Live updates (migration 0018).
  live_events: "read by the live streams only, never by a feed; written with changes that move versions already",
  // Incoming webhooks (migration 0053).
  incoming_hooks: "read by the hook addresses (/hooks/...) and the pages managing them; no feed shows them",
  // Calendar feeds (migration 0026).
  calendar_feeds: "read by the calendar addresses (/ical/...), which are built afresh and never kept by the feed cache",
  // Notification mail (migration 0034): only the settings pages and the mailer read these.
  mail_settings: "read by the settings page and the mailer; no feed shows them",
  mail_group_settings: "read by the settings and group pages and the mailer; no feed shows them",
  mail_changes: "the mailer's log of changes; written with changes that move versions already",
  mail_batches: "the mailer's work in progress; no feed reads it",
  mail_digest_slots: "the mailer's work in progress; no feed reads it",
  // Event reminders (migration 0056): the event page and the mailer read them, never a feed.
  event_reminders: "a person's mail reminders of events; read by the event page and the mailer, never by a feed",
  // The audit log (migration 0035): the admin pages and exports read it, never a feed.
  audit_events: "read by the audit pages and exports only, which are never kept by the feed cache",
  // Site settings (migration 0036): no feed shows one.
  site_settings: "the site's settings; read by pages and sign-up, never shown in a feed",
  // Two-factor sign-in (migration 0038): read by sign-in and the account page, never by a feed.
  totp_secrets: "two-factor sign-in; no feed reads them",
  recovery_codes: "two-factor sign-in; no feed reads them",
  two_factor_requirements: "two-factor sign-in; no feed reads them",
  // Single sign-on (migration 0042): read by sign-in only.
  oidc_links: "single sign-on; read by sign-in only, never by a feed",
  oidc_sign_ins: "single sign-on under way; read by sign-in only",
  // Imports (migration 0044): the importer's memory of what it made.
  import_keys: "read by the importer only, never by a feed; written with rows whose own triggers move versions",
  archive_keys:
    "read by the archive's importer only, never by a feed; written with rows whose own triggers move versions",
  // Replies by mail (migration 0040): the listener's memory of what it posted.
  mail_replies_received: "read by the reply listener only, never by a feed",
  // Passkeys (migration 0041): read by sign-in and the account page, never by a feed.
  passkeys: "passkey sign-in; no feed reads them",
  passkey_challenges_used: "passkey sign-in's used challenges; no feed reads them",
  // What each reader has seen (migration 0048): the web's lists mark what is new; no feed shows it.
  item_visits: "read by the web's list pages only (never kept), written on a page view; no feed shows it",
  group_reads: "read by the web's list pages only (never kept); no feed shows it",
  // Outgoing webhooks (migration 0052): read by their pages, the command line and the sender.
  webhooks: "read by the webhook pages, `kairan webhook` and the sender; no feed shows them",
  webhook_deliveries: "the webhook queue and delivery log; no feed reads it",
  // WebSub (migration 0057): read by the hub, the account page and `kairan websub`.
  websub_subscriptions: "read by the WebSub hub, the account page and `kairan websub`; no feed shows them",
  websub_jobs: "the WebSub hub's queue; no feed reads it",
  // Delta sync (migration 0054): written by triggers with the item rows, whose own triggers move
  // the group's version; pruning moves the versions of the groups it prunes itself.
  item_changes: "written with item rows that move their group's version already; pruning moves it itself",
  item_change_horizons: "written only by pruning, which moves the pruned groups' versions itself",
};

/**
 * What a user's feeds can show, as versions kept by the database's triggers. The pair
 * (memberVersion, groupVersions) never repeats: the member version grows with every change of the
 * user's memberships (so the set of groups is fixed while it stays), and the sum of their group
 * versions (plus the directory row) grows with every change in any of them.
 */
export interface ViewVersion {
  /** The user's own version (0 before their first change). */
  readonly memberVersion: number;
  /** The sum of the versions of the groups the user has joined and of the directory row. */
  readonly groupVersions: number;
  /** Epoch ms of the latest of those changes, by the database's clock. */
  readonly changedAt: number;
  /** Epoch ms now, by the same clock (to tell whether `changedAt`'s second is over). */
  readonly now: number;
}
