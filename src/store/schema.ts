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
  files: FilesTable;
  file_versions: FileVersionsTable;
  oauth_nonces: OAuthNoncesTable;
  oauth_temporary_credentials: OAuthTemporaryCredentialsTable;
  attachments: AttachmentsTable;
  likes: LikesTable;
  favorites: FavoritesTable;
  comment_reads: CommentReadsTable;
  login_failures: LoginFailuresTable;
  notifications: NotificationsTable;
  like_notifications: LikeNotificationsTable;
  group_changes: GroupChangesTable;
  member_changes: MemberChangesTable;
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
}

/** Client applications and their access levels. */
export interface ApplicationsTable {
  id: Generated<number>;
  name: string;
  consumer_key: string;
  consumer_secret: string;
  access_level: string;
  created_at: number;
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
}

/** Board topics. */
export interface TopicsTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  body: string;
  author_id: number;
  folder_id: number | null;
  allow_edit: number;
  fast_notify: number;
  trashed: number;
  published_at: number;
  updated_at: number;
}

/** Comments on topics, tasks and files. */
export interface CommentsTable {
  id: Generated<number>;
  group_id: number;
  parent_kind: "BOARD" | "TASK" | "CABINET";
  parent_id: number;
  number: number;
  author_id: number;
  body: string;
  reply_to: number | null;
  created_at: number;
}

/** The last comment number handed out per parent: numbers are never reused, even after deletes. */
export interface CommentCountersTable {
  parent_kind: "BOARD" | "TASK" | "CABINET";
  parent_id: number;
  last_number: number;
}

/** Live and expired edit leases on topics (decisions.md §5). */
export interface TopicLeasesTable {
  topic_id: number;
  user_id: number;
  since: number;
  until: number;
}

/** Tasks of a group; `sequence` numbers them within the group. Due dates of all-day tasks are midnight UTC. */
export interface TasksTable {
  id: Generated<number>;
  group_id: number;
  sequence: number;
  title: string;
  summary: string;
  author_id: number;
  assignee_id: number | null;
  due_at: number | null;
  all_day: number;
  priority: "S" | "A" | "B" | "C";
  status: "NOT_STARTED" | "IN_PROGRESS" | "ON_HOLD" | "COMPLETED";
  folder_id: number | null;
  trashed: number;
  created_at: number;
  updated_at: number;
}

/** Shared-folder files; `current_version` is the newest row of file_versions. */
export interface FilesTable {
  id: Generated<number>;
  group_id: number;
  title: string;
  memo: string;
  author_id: number;
  folder_id: number | null;
  current_version: number;
  trashed: number;
  created_at: number;
  updated_at: number;
}

/** Every version of a file; the bytes live in the blob store under `blob_key`. */
export interface FileVersionsTable {
  id: Generated<number>;
  file_id: number;
  version_number: number;
  file_name: string;
  size: number;
  mime_type: string;
  blob_key: string;
  width: number | null;
  height: number | null;
  thumbnail_key: string | null;
  author_id: number;
  comment: string;
  created_at: number;
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

/** Kinds of item a like or favorite row points at (comments by their row id). */
export type ItemKind = "BOARD" | "TASK" | "CABINET" | "COMMENT";

/** Files attached to comments; the bytes live in the blob store under `blob_key`. */
export interface AttachmentsTable {
  id: Generated<number>;
  group_id: number;
  comment_id: number;
  position: number;
  file_name: string;
  content_type: string;
  size: number;
  blob_key: string;
  created_at: number;
}

/** One row per (user, liked item). */
export interface LikesTable {
  user_id: number;
  item_kind: ItemKind;
  item_id: number;
  group_id: number;
  created_at: number;
}

/** One row per (user, favorited item). */
export interface FavoritesTable {
  user_id: number;
  item_kind: ItemKind;
  item_id: number;
  group_id: number;
  created_at: number;
}

/** When a user last confirmed (read) the comments of a parent item. */
export interface CommentReadsTable {
  user_id: number;
  parent_kind: "BOARD" | "TASK" | "CABINET";
  parent_id: number;
  confirmed_at: number;
}

/** Sign-in attempts not (yet) followed by a success, per account or address, in a fixed window. */
export interface LoginFailuresTable {
  scope: "account" | "address";
  /** The e-mail address as typed (lower-cased), or the client address. */
  subject: string;
  failures: number;
  window_start: number;
}

/**
 * One update notification per (user, item) (decisions.md §6). `item_kind` GROUP is a group's
 * member list (item_id = the group id). `event` is the last change's cause; the comment and
 * summary columns describe the last comment and body changes.
 */
export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  item_kind: "GROUP" | "BOARD" | "TASK" | "CABINET";
  item_id: number;
  actor_id: number | null;
  event: "created" | "updated" | "comment" | "commentDeleted" | "joined" | "left";
  confirmed: number;
  unconfirmed_comments: number;
  comment_number: number | null;
  comment_deleted: number;
  summary_updated_at: number | null;
  summary_updator_id: number | null;
  created_at: number;
  updated_at: number;
  last_access_at: number | null;
}

/**
 * One like notification per (owner, liked item): a topic, task or file (comment_number 0) or one
 * of their comments (its number, and comment_id = its row, which keys its likes).
 */
export interface LikeNotificationsTable {
  id: Generated<number>;
  user_id: number;
  group_id: number;
  item_kind: "BOARD" | "TASK" | "CABINET";
  item_id: number;
  comment_number: number;
  comment_id: number | null;
  confirmed: number;
  created_at: number;
  updated_at: number;
  confirmed_at: number | null;
}

/**
 * A group's change version, moved by triggers on every write to what the group's feeds show
 * (store/change-tracking.ts); row 0 counts for everyone (user names).
 */
export interface GroupChangesTable {
  group_id: number;
  version: number;
  /** Epoch ms by the database's clock; never goes back. */
  changed_at: number;
}

/** A user's change version: per-caller state (memberships, favorites, confirmations). */
export interface MemberChangesTable {
  user_id: number;
  version: number;
  changed_at: number;
}
