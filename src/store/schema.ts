import type {
  AttachmentsTable,
  CommentCountersTable,
  CommentsTable,
  FilesTable,
  FileVersionsTable,
  FileSearchTextsTable,
  TasksTable,
  PersonalTasksTable,
  TopicLeasesTable,
  TopicsTable,
} from "./schema-content.js";
import type { ItemChangeHorizonsTable, ItemChangesTable } from "./schema-item-changes.js";
import type {
  CommentReadsTable,
  GroupReadsTable,
  ItemVisitsTable,
  FavoritesTable,
  GroupChangesTable,
  LikeNotificationsTable,
  LikesTable,
  LiveEventsTable,
  MemberChangesTable,
  MentionsTable,
  NotificationsTable,
} from "./schema-activity.js";
import type {
  ChatAttachmentsTable,
  ChatLikeNotificationsTable,
  ChatLikesTable,
  ChatMembersTable,
  ChatMessagesTable,
  ChatRoomsTable,
} from "./schema-chat.js";
import type {
  CalendarFeedsTable,
  EventExceptionsTable,
  EventFacilitiesTable,
  EventMenusTable,
  EventParticipantsTable,
  EventRemindersTable,
  EventsTable,
  PersonalEventExceptionsTable,
  PersonalEventsTable,
  FacilitiesTable,
} from "./schema-events.js";
import type {
  MailBatchesTable,
  MailChangesTable,
  MailDigestSlotsTable,
  MailGroupSettingsTable,
  MailSettingsTable,
} from "./schema-mail.js";
import type { OidcLinksTable, OidcSignInsTable } from "./schema-oidc.js";
import type { ArchiveKeysTable, ImportKeysTable } from "./schema-import.js";
import type { PasskeyChallengesUsedTable, PasskeysTable } from "./schema-passkeys.js";
import type { RecoveryCodesTable, TotpSecretsTable, TwoFactorRequirementsTable } from "./schema-two-factor.js";
import type { WebhookDeliveriesTable, WebhooksTable } from "./schema-webhooks.js";
import type { WebSubJobsTable, WebSubSubscriptionsTable } from "./schema-websub.js";
import type { ColumnType, Generated } from "kysely";

/**
 * Table shapes as Kysely sees them, shared by both engines. Flags are integers 0/1 and times are
 * epoch milliseconds so that the same query code runs unchanged on SQLite and PostgreSQL.
 */
export interface Database {
  users: UsersTable;
  applications: ApplicationsTable;
  tokens: TokensTable;
  sessions: SessionsTable;
  groups: GroupsTable;
  memberships: MembershipsTable;
  folders: FoldersTable;
  topics: TopicsTable;
  comments: CommentsTable;
  comment_counters: CommentCountersTable;
  topic_leases: TopicLeasesTable;
  tasks: TasksTable;
  personal_tasks: PersonalTasksTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  file_search_texts: FileSearchTextsTable;
  oauth_nonces: OAuthNoncesTable;
  oauth_temporary_credentials: OAuthTemporaryCredentialsTable;
  attachments: AttachmentsTable;
  likes: LikesTable;
  favorites: FavoritesTable;
  comment_reads: CommentReadsTable;
  item_visits: ItemVisitsTable;
  item_changes: ItemChangesTable;
  item_change_horizons: ItemChangeHorizonsTable;
  group_reads: GroupReadsTable;
  login_failures: LoginFailuresTable;
  sign_in_devices: SignInDevicesTable;
  mail_outbox: MailOutboxTable;
  site_keys: SiteKeysTable;
  audit_events: AuditEventsTable;
  site_settings: SiteSettingsTable;
  mail_replies_received: MailRepliesReceivedTable;
  account_tokens: AccountTokensTable;
  totp_secrets: TotpSecretsTable;
  recovery_codes: RecoveryCodesTable;
  two_factor_requirements: TwoFactorRequirementsTable;
  oidc_links: OidcLinksTable;
  oidc_sign_ins: OidcSignInsTable;
  import_keys: ImportKeysTable;
  archive_keys: ArchiveKeysTable;
  passkeys: PasskeysTable;
  passkey_challenges_used: PasskeyChallengesUsedTable;
  notifications: NotificationsTable;
  like_notifications: LikeNotificationsTable;
  mentions: MentionsTable;
  group_changes: GroupChangesTable;
  member_changes: MemberChangesTable;
  user_pictures: UserPicturesTable;
  chat_rooms: ChatRoomsTable;
  chat_members: ChatMembersTable;
  chat_messages: ChatMessagesTable;
  chat_attachments: ChatAttachmentsTable;
  chat_likes: ChatLikesTable;
  chat_like_notifications: ChatLikeNotificationsTable;
  event_menus: EventMenusTable;
  facilities: FacilitiesTable;
  events: EventsTable;
  event_participants: EventParticipantsTable;
  event_reminders: EventRemindersTable;
  event_facilities: EventFacilitiesTable;
  event_exceptions: EventExceptionsTable;
  personal_events: PersonalEventsTable;
  personal_event_exceptions: PersonalEventExceptionsTable;
  live_events: LiveEventsTable;
  calendar_feeds: CalendarFeedsTable;
  mail_settings: MailSettingsTable;
  mail_group_settings: MailGroupSettingsTable;
  mail_changes: MailChangesTable;
  mail_batches: MailBatchesTable;
  mail_digest_slots: MailDigestSlotsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  websub_subscriptions: WebSubSubscriptionsTable;
  websub_jobs: WebSubJobsTable;
  incoming_hooks: IncomingHooksTable;
}

/** Registered users. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  email: string;
  password_hash: string;
  family_kana: string;
  given_kana: string;
  created_at: number;
  /** When an operator disabled the account; null while it is in use (migration 0011). */
  disabled_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The language the person chose for their pages; null: the browser's (migration 0013). */
  lang: ColumnType<string | null, string | null | undefined, string | null>;
  /** The IANA time zone the person chose; null: the server's (migration 0013). */
  time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for the site's administrators (the first run's account); migration 0033. */
  site_admin: Generated<number>;
  /** When an import made it as a placeholder (disabled, no password); null otherwise and once claimed (migration 0046). */
  placeholder_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A user's picture, normalised on upload (migration 0013). */
export interface UserPicturesTable {
  user_id: number;
  media_type: string;
  bytes: Uint8Array;
  /** Changes with every new picture: the icon's ETag. */
  etag: string;
  updated_at: number;
}

/** Client applications and their access levels. */
export interface ApplicationsTable {
  id: Generated<number>;
  name: string;
  consumer_key: string;
  consumer_secret: string;
  access_level: string;
  created_at: number;
  /** 1: `/oauth/token` also takes a signature keyed with an empty token secret (migration 0030). */
  legacy_signing: Generated<number>;
}

/** Token credentials (OAuth) that double as personal Bearer tokens; looked up by hash. */
export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  app_id: number;
  token_hash: string;
  secret: string;
  label: string;
  /** `personal` (kairan token, the settings page) or `oauth` (issued to an application the user authorized). */
  origin: Generated<"personal" | "oauth">;
  created_at: number;
  revoked_at: number | null;
}

/** Browsers trusted for sign-in (migration 0031): the device cookie holds a token, this table its SHA-256 per account. */
export interface SignInDevicesTable {
  token_hash: string;
  user_id: number;
  /** The account's last sign-in from this browser: trust ends DEVICE_TRUST_MS after it. */
  used_at: number;
}

/** Messages to send (migration 0032); `headers` is a JSON object of further header fields. */
export interface MailOutboxTable {
  id: Generated<number>;
  message_id: string;
  kind: string;
  to_address: string;
  to_name: string | null;
  user_id: number | null;
  subject: string;
  text_body: string;
  html_body: string | null;
  headers: Generated<string>;
  created_at: number;
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: number;
  claimed_until: number | null;
  sent_at: number | null;
  last_error: string | null;
}

/** Random keys of the site by purpose (migration 0032); `secret` is base64url. */
export interface SiteKeysTable {
  name: string;
  secret: string;
  created_at: number;
}

/** The audit log (migration 0035): one row per administrative action or security event. */
export interface AuditEventsTable {
  id: Generated<number>;
  created_at: number;
  action: string;
  outcome: "done" | "refused";
  actor_user_id: number | null;
  actor_label: string;
  address: string | null;
  target_kind: string | null;
  target_id: string | null;
  target_label: string | null;
  group_id: number | null;
  /** A JSON object. */
  details: Generated<string>;
}

/** The site's settings changed in the browser (migration 0036); `value` is JSON. */
export interface SiteSettingsTable {
  name: string;
  value: string;
  updated_at: number;
  updated_by: number | null;
}

/** Replies by mail already posted (migration 0040), by the hash of their Message-ID and item. */
export interface MailRepliesReceivedTable {
  user_id: number;
  message_hash: string;
  created_at: number;
}

/** One-time links of accounts (migration 0033): password reset, address change, first-run setup. */
export interface AccountTokensTable {
  id: Generated<number>;
  purpose: "password-reset" | "address-confirm" | "setup";
  token_hash: string;
  user_id: number | null;
  /** The new address an address change confirms. */
  email: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** Web sign-in sessions; the cookie holds the token, this table its SHA-256. */
export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  /** The token every form of this session carries (synchronizer token). */
  csrf: string;
  created_at: number;
  expires_at: number;
}

/** Groups. */
export interface GroupsTable {
  id: Generated<number>;
  name: string;
  summary: string;
  created_at: number;
  updated_at: number;
  /** When an administrator archived the group (migration 0043); null while it is in use. */
  archived_at: number | null;
  /** 1: members, not only managers, manage the group's folders (migration 0047). */
  members_manage_folders: Generated<number>;
}

/** Joined members (status JOIN, user set) and invitations (status INVITE, e-mail and label set). */
export interface MembershipsTable {
  id: Generated<number>;
  group_id: number;
  user_id: number | null;
  status: "JOIN" | "INVITE";
  manager: number;
  notify: number;
  invite_email: string | null;
  invite_label: string | null;
  invite_expires_at: number | null;
  /** SHA-256 of the invitation link's secret (migration 0012); null without a link. */
  invite_token_hash: string | null;
  /** When the invitation's message was last queued; null when none was (migration 0033). */
  invite_sent_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The placeholder account an invitation hands over (migration 0046); null for an ordinary one. */
  claim_user_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: number;
  updated_at: number;
}

/** Folders of the board, task list and shared files. */
export interface FoldersTable {
  id: Generated<number>;
  group_id: number;
  area: "BOARD" | "TASK" | "CABINET";
  name: string;
  created_at: number;
  /** Place in its area's list, lowest first, then id (migration 0047). */
  position: Generated<number>;
}

/** OAuth nonces seen within their timestamp window; `token` is the token's hash, or "" for none. */
export interface OAuthNoncesTable {
  consumer_key: string;
  token: string;
  nonce: string;
  timestamp: number;
  expires_at: number;
}

/** OAuth temporary credentials (request tokens), single-use and short-lived; looked up by hash. */
export interface OAuthTemporaryCredentialsTable {
  id: Generated<number>;
  token_hash: string;
  secret: string;
  app_id: number;
  /** An absolute http(s) URL, or "oob". */
  callback: string;
  /** The authorize form's CSRF token. */
  csrf: string;
  status: "pending" | "approved" | "denied";
  user_id: number | null;
  verifier: string | null;
  created_at: number;
  expires_at: number;
}

/** Sign-in attempts not (yet) followed by a success, per account or address, in a fixed window. */
export interface LoginFailuresTable {
  /**
   * `pair`: one account from one address; `address`: an address on any accounts; `untrusted`: one
   * account from every client without its device cookie; `device`: one account from one trusted browser.
   * Migration 0033 adds the counters of mail sent on request (queries/login-failures.ts MailRequestScope).
   */
  scope:
    | "pair"
    | "address"
    | "untrusted"
    | "device"
    | "reset-address"
    | "reset-account"
    | "reset-client"
    | "address-change"
    | "invite-sender"
    // Migration 0038: wrong second-factor codes per account (the user id).
    | "second-factor";
  /**
   * `pair`: the e-mail address as typed (lower-cased), a line feed, the client address; `address`:
   * the client address; `untrusted`: the e-mail address; `device`: the e-mail address, a line feed,
   * the device token's hash.
   */
  subject: string;
  failures: number;
  window_start: number;
  /** `address` rows: attempts from it before this time are refused (back-off); 0 when none. */
  not_before: Generated<number>;
}

/** Incoming webhooks (migration 0053): a group's or a chat room's secret posting address. */
export interface IncomingHooksTable {
  id: Generated<number>;
  secret_hash: string;
  name: string;
  creator_id: number;
  group_id: number | null;
  topic_id: number | null;
  room_id: number | null;
  created_at: number;
}
