import type { WebhookRepo } from "./queries/webhooks.js";
import type { WebSubRepo } from "./queries/websub.js";
import type { ViewVersion } from "./change-tracking.js";
import type { CallerView } from "./queries/view-version.js";
import type { AppRepo } from "./queries/apps.js";
import type { AttachmentRepo } from "./queries/attachments.js";
import type { ChatRepo } from "./queries/chat.js";
import type { ChatAttachmentRepo } from "./queries/chat-attachments.js";
import type { ChatLikeNotificationRepo } from "./queries/chat-like-notifications.js";
import type { ChatLikeRepo } from "./queries/chat-likes.js";
import type { CommentReadRepo } from "./queries/comment-reads.js";
import type { ItemVisitRepo } from "./queries/item-visits.js";
import type { ItemChangeRepo } from "./queries/item-changes.js";
import type { CommentRepo } from "./queries/comments.js";
import type { DatasetRepo } from "./queries/dataset.js";
import type { EventRepo } from "./queries/events.js";
import type { PersonalEventRepo } from "./queries/personal-events.js";
import type { CalendarFeedRepo } from "./queries/calendar-feeds.js";
import type { FileRepo } from "./queries/files.repo.js";
import type { FolderRepo } from "./queries/folders.js";
import type { GroupRepo, MembershipRepo } from "./queries/groups.js";
import type { GroupAdminRepo } from "./queries/group-admin.js";
import type { SiteStatusRepo } from "./queries/site-status.js";
import type { InvitationRepo } from "./queries/invitations.js";
import type { LeaseRepo } from "./queries/leases.js";
import type { LikeNotificationRepo } from "./queries/like-notifications.js";
import type { LiveEventRepo } from "./queries/live-events.js";
import type { AddressBookRepo } from "./queries/address-book.js";
import type { MyDataRepo } from "./queries/my-data.js";
import type { LoginFailureRepo } from "./queries/login-failures.js";
import type { SignInDeviceRepo } from "./queries/sign-in-devices.js";
import type { MailOutboxRepo } from "./queries/mail-outbox.js";
import type { SiteKeyRepo } from "./queries/site-keys.js";
import type { AuditEventRepo } from "./queries/audit-events.js";
import type { SiteSettingRepo } from "./queries/site-settings.js";
import type { TwoFactorRepo } from "./queries/two-factor.js";
import type { OidcRepo } from "./queries/oidc.js";
import type { ImportKeyRepo } from "./queries/import-keys.js";
import type { PasskeyRepo } from "./queries/passkeys.js";
import type { IncomingHookRepo } from "./queries/incoming-hooks.js";
import type { MailReplyRepo } from "./queries/mail-replies.js";
import type { AccountTokenRepo } from "./queries/account-tokens.js";
import type { NotificationCountRepo } from "./queries/notification-counts.js";
import type { NotificationRepo } from "./queries/notifications.js";
import type { MentionRepo } from "./queries/mentions.js";
import type { NonceRepo, TemporaryCredentialRepo } from "./queries/oauth.js";
import type { FavoriteRepo, LikeRepo } from "./queries/reactions.js";
import type { SearchRepo } from "./queries/search.js";
import type { SessionRepo } from "./queries/sessions.js";
import type { TaskRepo } from "./queries/tasks.js";
import type { PersonalTaskRepo } from "./queries/personal-tasks.js";
import type { TokenRepo } from "./queries/tokens.js";
import type { TopicRepo } from "./queries/topics.js";
import type { UserRepo } from "./queries/users.js";
import type { UserPictureRepo } from "./queries/user-pictures.js";
import type { MailSettingsRepo } from "./queries/mail-settings.js";
import type { MailChangeRepo } from "./queries/mail-changes.js";
import type { MailWorkRepo } from "./queries/mail-work.js";
import type { MailReaderRepo } from "./queries/mail-readers.js";
import type { MailContentRepo } from "./queries/mail-content.js";
import type { EventReminderRepo } from "./queries/event-reminders.js";
import type { ArchiveRepo } from "./queries/archive.js";

/**
 * The persistence boundary. Services see only these interfaces and domain types; each engine
 * (store/sqlite, store/postgres) provides them with the same shared Kysely queries (store/queries),
 * where each repository's interface stands beside the queries that implement it.
 */
export interface Store {
  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs reads without opening a transaction (cheaper for single-statement reads). */
  read<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Applies pending migrations. */
  migrate(): Promise<void>;
  /** True when the database holds no users yet (first start). */
  isEmpty(): Promise<boolean>;
  /** The change versions of what the user can see, in one query (store/change-tracking.ts). */
  viewVersion(userId: number): Promise<ViewVersion>;
  /**
   * A live Bearer token (by its hash) with its user and application, and that user's view
   * version, in one query: the conditional GET's fast path (http/fast-feed.ts). Undefined when
   * the token is unknown, revoked or its account disabled.
   */
  callerView(tokenHash: string): Promise<CallerView | undefined>;
  /**
   * Calls `onWake` whenever a transaction that logged live events may have committed: on SQLite
   * after this process's commits, on PostgreSQL when any process's NOTIFY arrives (one listening
   * connection, reconnecting). Returns the unsubscribe function.
   */
  onLiveEvents(onWake: () => void): () => void;
  /** The connection pool's state now, for the metrics (PostgreSQL; SQLite has one connection, no pool). */
  readonly pool?: () => PoolState;
  close(): Promise<void>;
}

/** A connection pool's connections and the requests waiting for one. */
export interface PoolState {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
}

/** The repositories available inside a transaction (or a plain read). */
export interface Tx extends Repositories {
  /**
   * True inside `transaction`, false in `read`: the one check of an archived group
   * (services/group/group-access.ts) refuses writes by it, and lets reads through.
   */
  readonly writing: boolean;
}

/** The repositories themselves. */
export interface Repositories {
  readonly users: UserRepo;
  readonly userPictures: UserPictureRepo;
  readonly apps: AppRepo;
  readonly tokens: TokenRepo;
  readonly sessions: SessionRepo;
  readonly groups: GroupRepo;
  readonly memberships: MembershipRepo;
  /** The administration's listing, archiving and removal of groups. */
  readonly groupAdmin: GroupAdminRepo;
  /** The database's size and the stored files' bytes (the administration's status page). */
  readonly siteStatus: SiteStatusRepo;
  /** Invitations with links, and their acceptance (the web interface). */
  readonly invitations: InvitationRepo;
  readonly folders: FolderRepo;
  readonly topics: TopicRepo;
  readonly comments: CommentRepo;
  readonly leases: LeaseRepo;
  readonly dataset: DatasetRepo;
  readonly tasks: TaskRepo;
  /** Personal tasks and the ToDo list (assigned group tasks with them). */
  readonly personalTasks: PersonalTaskRepo;
  readonly files: FileRepo;
  readonly nonces: NonceRepo;
  readonly temporaryCredentials: TemporaryCredentialRepo;
  readonly attachments: AttachmentRepo;
  readonly likes: LikeRepo;
  readonly favorites: FavoriteRepo;
  readonly commentReads: CommentReadRepo;
  /** Readers' visits of items and "mark all read" of groups (the web's "new"). */
  readonly itemVisits: ItemVisitRepo;
  /** Delta sync: the group feeds' change index and tombstones. */
  readonly itemChanges: ItemChangeRepo;
  readonly loginFailures: LoginFailureRepo;
  /** Browsers trusted for sign-in (device cookies). */
  readonly signInDevices: SignInDeviceRepo;
  /** Messages to send, written with the change that caused them (services/mail). */
  readonly mailOutbox: MailOutboxRepo;
  /** The site's random signing keys (reply addresses, unsubscribe links). */
  readonly siteKeys: SiteKeyRepo;
  readonly auditEvents: AuditEventRepo;
  readonly siteSettings: SiteSettingRepo;
  readonly mailReplies: MailReplyRepo;
  /** One-time links of accounts: password resets, address changes, the first run's setup. */
  readonly accountTokens: AccountTokenRepo;
  /** TOTP secrets, recovery codes and administrators' requirements of a second factor. */
  readonly twoFactor: TwoFactorRepo;
  /** Single sign-on: accounts linked to a provider's person, and sign-ins under way. */
  readonly oidc: OidcRepo;
  /** What imports made, by the key of each imported row (a second run makes nothing twice). */
  readonly importKeys: ImportKeyRepo;
  /** Passkeys (WebAuthn credentials) and the challenges already answered. */
  readonly passkeys: PasskeyRepo;
  readonly notifications: NotificationRepo;
  readonly likeNotifications: LikeNotificationRepo;
  readonly notificationCounts: NotificationCountRepo;
  readonly search: SearchRepo;
  readonly mentions: MentionRepo;
  /** Chat rooms, members and messages. */
  readonly chat: ChatRepo;
  readonly chatAttachments: ChatAttachmentRepo;
  /** Likes of chat messages and their like notifications (a room is in no group). */
  readonly chatLikes: ChatLikeRepo;
  readonly chatLikeNotifications: ChatLikeNotificationRepo;
  /** Group events, their menus and the group's facilities. */
  readonly events: EventRepo;
  /** Users' personal events (their own schedule). */
  readonly personalEvents: PersonalEventRepo;
  /** The live event log: what the streams of /api/stream/V2 report. */
  readonly liveEvents: LiveEventRepo;
  /** People who share a group with a user (/api/mpAddress/V2). */
  readonly addressBook: AddressBookRepo;
  /** What one person made, for the download of their own data. */
  readonly myData: MyDataRepo;
  /** The portable archive's reads and restoring writes (`kairan export`, `kairan import FILE`). */
  readonly archive: ArchiveRepo;
  /** Calendar feed secrets (the /ical/ addresses). */
  readonly calendarFeeds: CalendarFeedRepo;
  /** People's notification mail settings and the groups they turned off. */
  readonly mailSettings: MailSettingsRepo;
  /** The notification mailer's log of changes (one row per change). */
  readonly mailChanges: MailChangeRepo;
  /** The notification mailer's bookkeeping: due changes, batches, digest slots. */
  readonly mailWork: MailWorkRepo;
  /** Who gets notification mail about an item. */
  readonly mailReaders: MailReaderRepo;
  /** What notification mail tells of changed items. */
  readonly mailContent: MailContentRepo;
  /** People's mail reminders of group events. */
  readonly eventReminders: EventReminderRepo;
  /** Outgoing webhooks and their deliveries queue (migration 0052). */
  readonly webhooks: WebhookRepo;
  /** WebSub subscriptions and the hub's queue (migration 0057). */
  readonly websub: WebSubRepo;
  /** Incoming webhooks: a group's or a chat room's secret posting addresses. */
  readonly incomingHooks: IncomingHookRepo;
}
