// The portable archive (`kairan export`, `kairan import FILE`, a group's download): what it holds,
// declared once. Each archived table is a list of columns written into the `<kairan:record>` of
// its Atom entries, the columns that name rows of other tables (rewritten when an import gives a
// row a new id), and the columns that name stored bytes. Pure data and small pure rules; the
// store reads and writes the rows (store/queries/archive.ts), the services walk this list.
import type { ContentKind } from "./kinds.js";

/** The archive's format name and version, in its manifest. */
export const ARCHIVE_FORMAT = "kairan-archive";
export const ARCHIVE_VERSION = 1;

/** The namespace of Kairan's own elements in the archive's feeds (after the elements clients read). */
export const ARCHIVE_NS = "urn:kairan:archive:1";

/** RFC 5005's namespace (`<fh:archive/>`). */
export const HISTORY_NS = "http://purl.org/syndication/history/1.0";

/** Rows per archive page (one Atom document). */
export const ARCHIVE_PAGE = 100;

/** A bad archive, or one that cannot go where it is asked to: one line naming the cause (exit status 2). */
export class ArchiveError extends Error {
  override name = "ArchiveError";
}

/** The tables of a group's content, parents before children: the order an import writes them in. */
export const ARCHIVE_TABLES = [
  "groups",
  "memberships",
  "mail_group_settings",
  "folders",
  "event_menus",
  "facilities",
  "topics",
  "tasks",
  "files",
  "file_versions",
  "events",
  "event_participants",
  "event_facilities",
  "event_exceptions",
  "comments",
  "attachments",
  "likes",
  "favorites",
] as const;

/** The tables of chat, which belong to no group: in the archive of the whole site only. */
export const CHAT_TABLES = ["chat_rooms", "chat_members", "chat_messages", "chat_likes", "chat_attachments"] as const;

/** An archived table: of a group's content, or of chat. */
export type ArchiveTable = (typeof ARCHIVE_TABLES)[number] | (typeof CHAT_TABLES)[number];

/** What a column that names a row points at. */
export type RefTarget = ArchiveTable | "users";

/** One archived table. */
export interface TableSpec {
  /** The feed's name in `groups/<id>/`: `topics` gives `topics-1.atom`, `topics-2.atom`... */
  readonly feed: string;
  /** The columns written, in order. */
  readonly columns: readonly string[];
  /** The columns that hold text (the others hold integers); a missing attribute is NULL. */
  readonly text: readonly string[];
  /** The columns that identify a row and order the pages: `["id"]` for a table with its own id. */
  readonly key: readonly string[];
  /** Columns naming rows of other tables. */
  readonly refs: Readonly<Record<string, RefTarget>>;
  /** A column pair naming an item of any kind (`parent_kind`, `parent_id`). */
  readonly item?: { readonly kind: string; readonly id: string };
  /** Columns naming stored bytes: written as the archive's `blobs/...` path. */
  readonly blobs?: readonly string[];
  /** Reached through its file (`file_versions`) rather than a `group_id` of its own. */
  readonly viaFile?: boolean;
  /** Of no group (chat): every row of the site. */
  readonly site?: boolean;
  /** The entry's title column, author column and time column. */
  readonly title?: string;
  readonly author?: string;
  readonly time?: string;
  /** The kind of group content its rows are (their entries take the API's item ids). */
  readonly kind?: ContentKind;
}

const GROUP = { group_id: "groups" } as const;

/** A person's mark on an item of any kind (a like, a favorite): the two tables are alike. */
function reactionSpec(feed: string): TableSpec {
  return {
    feed,
    columns: ["user_id", "item_kind", "item_id", "group_id", "created_at"],
    text: ["item_kind"],
    key: ["item_kind", "item_id", "user_id"],
    refs: { ...GROUP, user_id: "users" },
    item: { kind: "item_kind", id: "item_id" },
    author: "user_id",
    time: "created_at",
  };
}

/** Every archived table. Secrets stay out: an invitation's token hash is not written. */
export const TABLE_SPECS: Readonly<Record<ArchiveTable, TableSpec>> = {
  groups: {
    feed: "group",
    columns: ["id", "name", "summary", "created_at", "updated_at", "archived_at", "members_manage_folders"],
    text: ["name", "summary"],
    key: ["id"],
    refs: {},
    title: "name",
    time: "updated_at",
  },
  memberships: {
    feed: "members",
    columns: [
      "id",
      "group_id",
      "user_id",
      "status",
      "manager",
      "notify",
      "invite_email",
      "invite_label",
      "invite_expires_at",
      "invite_sent_at",
      "claim_user_id",
      "created_at",
      "updated_at",
    ],
    text: ["status", "invite_email", "invite_label"],
    key: ["id"],
    refs: { ...GROUP, user_id: "users", claim_user_id: "users" },
    author: "user_id",
    time: "updated_at",
  },
  mail_group_settings: {
    feed: "notification-settings",
    columns: ["user_id", "group_id", "updated_at"],
    text: [],
    key: ["user_id"],
    refs: { ...GROUP, user_id: "users" },
    author: "user_id",
    time: "updated_at",
  },
  folders: {
    feed: "folders",
    columns: ["id", "group_id", "area", "name", "created_at", "position"],
    text: ["area", "name"],
    key: ["id"],
    refs: GROUP,
    title: "name",
    time: "created_at",
  },
  event_menus: {
    feed: "event-menus",
    columns: ["id", "group_id", "name", "created_at"],
    text: ["name"],
    key: ["id"],
    refs: GROUP,
    title: "name",
    time: "created_at",
  },
  facilities: {
    feed: "facilities",
    columns: ["id", "group_id", "name", "created_at"],
    text: ["name"],
    key: ["id"],
    refs: GROUP,
    title: "name",
    time: "created_at",
  },
  topics: {
    feed: "topics",
    columns: [
      "id",
      "group_id",
      "title",
      "body",
      "author_id",
      "folder_id",
      "allow_edit",
      "fast_notify",
      "trashed",
      "published_at",
      "updated_at",
    ],
    text: ["title", "body"],
    key: ["id"],
    refs: { ...GROUP, author_id: "users", folder_id: "folders" },
    title: "title",
    author: "author_id",
    time: "updated_at",
    kind: "BOARD",
  },
  tasks: {
    feed: "tasks",
    columns: [
      "id",
      "group_id",
      "sequence",
      "title",
      "summary",
      "author_id",
      "assignee_id",
      "due_at",
      "all_day",
      "priority",
      "status",
      "folder_id",
      "trashed",
      "created_at",
      "updated_at",
    ],
    text: ["title", "summary", "priority", "status"],
    key: ["id"],
    refs: { ...GROUP, author_id: "users", assignee_id: "users", folder_id: "folders" },
    title: "title",
    author: "author_id",
    time: "updated_at",
    kind: "TASK",
  },
  files: {
    feed: "files",
    columns: [
      "id",
      "group_id",
      "title",
      "memo",
      "author_id",
      "folder_id",
      "current_version",
      "trashed",
      "created_at",
      "updated_at",
    ],
    text: ["title", "memo"],
    key: ["id"],
    refs: { ...GROUP, author_id: "users", folder_id: "folders" },
    title: "title",
    author: "author_id",
    time: "updated_at",
    kind: "CABINET",
  },
  file_versions: {
    feed: "file-versions",
    columns: [
      "id",
      "file_id",
      "version_number",
      "file_name",
      "size",
      "mime_type",
      "blob_key",
      "width",
      "height",
      "thumbnail_key",
      "author_id",
      "comment",
      "created_at",
    ],
    text: ["file_name", "mime_type", "blob_key", "thumbnail_key", "comment"],
    key: ["id"],
    refs: { file_id: "files", author_id: "users" },
    blobs: ["blob_key", "thumbnail_key"],
    viaFile: true,
    title: "file_name",
    author: "author_id",
    time: "created_at",
  },
  events: {
    feed: "events",
    columns: [
      "id",
      "group_id",
      "creator_id",
      "title",
      "memo",
      "start_at",
      "end_at",
      "all_day",
      "time_zone",
      "rule",
      "series_end",
      "menu_id",
      "created_at",
      "updated_at",
    ],
    text: ["title", "memo", "time_zone", "rule"],
    key: ["id"],
    refs: { ...GROUP, creator_id: "users", menu_id: "event_menus" },
    title: "title",
    author: "creator_id",
    time: "updated_at",
    kind: "GW_SCHEDULE",
  },
  event_participants: {
    feed: "event-participants",
    columns: ["event_id", "group_id", "user_id", "answer", "answered_at"],
    text: ["answer"],
    key: ["event_id", "user_id"],
    refs: { ...GROUP, event_id: "events", user_id: "users" },
    author: "user_id",
  },
  event_facilities: {
    feed: "event-facilities",
    columns: ["event_id", "group_id", "facility_id"],
    text: [],
    key: ["event_id", "facility_id"],
    refs: { ...GROUP, event_id: "events", facility_id: "facilities" },
  },
  event_exceptions: {
    feed: "event-exceptions",
    columns: ["event_id", "group_id", "original_start", "cancelled", "start_at", "end_at"],
    text: [],
    key: ["event_id", "original_start"],
    refs: { ...GROUP, event_id: "events" },
  },
  comments: {
    feed: "comments",
    columns: [
      "id",
      "group_id",
      "parent_kind",
      "parent_id",
      "number",
      "author_id",
      "body",
      "reply_to",
      "created_at",
      "edited_at",
    ],
    text: ["parent_kind", "body"],
    key: ["id"],
    refs: { ...GROUP, author_id: "users" },
    item: { kind: "parent_kind", id: "parent_id" },
    author: "author_id",
    time: "created_at",
  },
  attachments: {
    feed: "attachments",
    columns: [
      "id",
      "group_id",
      "comment_id",
      "position",
      "file_name",
      "content_type",
      "size",
      "blob_key",
      "created_at",
    ],
    text: ["file_name", "content_type", "blob_key"],
    key: ["id"],
    refs: { ...GROUP, comment_id: "comments" },
    blobs: ["blob_key"],
    title: "file_name",
    time: "created_at",
  },
  likes: reactionSpec("likes"),
  favorites: reactionSpec("favorites"),
  chat_rooms: {
    feed: "rooms",
    columns: ["id", "type", "title", "creator_id", "direct_key", "last_number", "created_at", "activity_at"],
    text: ["type", "title", "direct_key"],
    key: ["id"],
    refs: { creator_id: "users" },
    site: true,
    title: "title",
    author: "creator_id",
    time: "activity_at",
  },
  chat_members: {
    feed: "room-members",
    columns: ["room_id", "user_id", "muted", "unconfirmed", "joined_at"],
    text: [],
    key: ["room_id", "user_id"],
    refs: { room_id: "chat_rooms", user_id: "users" },
    site: true,
    author: "user_id",
    time: "joined_at",
  },
  chat_messages: {
    feed: "messages",
    columns: ["id", "room_id", "number", "author_id", "body", "created_at", "edited_at"],
    text: ["body"],
    key: ["id"],
    refs: { room_id: "chat_rooms", author_id: "users" },
    site: true,
    author: "author_id",
    time: "created_at",
  },
  chat_likes: {
    feed: "message-likes",
    columns: ["room_id", "message_number", "user_id", "created_at"],
    text: [],
    key: ["room_id", "message_number", "user_id"],
    refs: { room_id: "chat_rooms", user_id: "users" },
    site: true,
    author: "user_id",
    time: "created_at",
  },
  chat_attachments: {
    feed: "message-attachments",
    columns: [
      "id",
      "room_id",
      "message_number",
      "position",
      "file_name",
      "content_type",
      "size",
      "blob_key",
      "created_at",
    ],
    text: ["file_name", "content_type", "blob_key"],
    key: ["id"],
    refs: { room_id: "chat_rooms" },
    blobs: ["blob_key"],
    site: true,
    title: "file_name",
    time: "created_at",
  },
};

/** The accounts the archive's rows name: no password, no secret, no role (they arrive as placeholders). */
export const ACCOUNT_SPEC: TableSpec = {
  feed: "accounts",
  columns: ["id", "name", "email", "family_kana", "given_kana", "lang", "time_zone", "created_at"],
  text: ["name", "email", "family_kana", "given_kana", "lang", "time_zone"],
  key: ["id"],
  refs: {},
  title: "name",
  time: "created_at",
};

/** The table an item kind's rows live in (comments' parents, likes' and favorites' items). */
export const ITEM_TABLES: Readonly<Record<string, ArchiveTable>> = {
  BOARD: "topics",
  TASK: "tasks",
  CABINET: "files",
  GW_SCHEDULE: "events",
  COMMENT: "comments",
};

/** A row as the archive carries it: integers, text, or NULL. */
export type ArchiveRow = Readonly<Record<string, string | number | null>>;

/** The name of an archive page: `groups/1/topics-2.atom`. */
export function pagePath(groupId: number, feed: string, page: number): string {
  return `groups/${groupId}/${feed}-${page}.atom`;
}

/** The name of a chat page: `chat/messages-2.atom`. */
export function chatPagePath(feed: string, page: number): string {
  return `chat/${feed}-${page}.atom`;
}

/** The path of stored bytes in the archive: `blobs/file_versions/12/blob_key`. */
export function blobPath(table: ArchiveTable, id: number, column: string): string {
  return `blobs/${table}/${id}/${column}`;
}

/** The import key that remembers what a row of an archive became (import_keys, per group). */
export function rowKey(table: ArchiveTable, id: number): string {
  return `archive:${table}:${id}`;
}

/** The key of a group itself: its id and creation time on the site it came from. */
export function groupKey(row: ArchiveRow): string {
  return `archive:group:${String(row.id)}:${String(row.created_at)}`;
}

/** The manifest: what the archive holds, counts per kind, and the sha256 of every other member. */
export interface ArchiveManifest {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly version: number;
  readonly exportedAt: string;
  /** The groups' ids on the site that wrote it, in order. */
  readonly groups: readonly number[];
  /** Rows per table (and `accounts`, `blobs`). */
  readonly counts: Readonly<Record<string, number>>;
  /** Every member but the manifest: its sha256 (hex) and size. */
  readonly members: Readonly<Record<string, { readonly sha256: string; readonly size: number }>>;
}

/** The download's file name: `kairan-group-1-2026-11-28.zip`. */
export function archiveFileName(groupId: number, now: number): string {
  return `kairan-group-${groupId}-${new Date(now).toISOString().slice(0, 10)}.zip`;
}
