import { GoneError, ValidationError } from "./errors.js";
import type { FolderFilter } from "./folder.js";
import { type Task, type TaskFilter, isDueWithin } from "./task.js";

/**
 * Delta sync (docs/api.md "Delta sync"): the cursor of `changes-since` and `rel="next-changes"`.
 * Clients treat it as opaque; it is base64url of `c1.<kind>.<group>.<parent>.<seq>[.<position>]`:
 * the feed it belongs to (its kind, group (minus the user's id for a person's own feed) and, for
 * comments, parent item), the change sequence
 * number it stands after, and, while a departed member's tombstones are paged, how far they went.
 */
export interface ChangeCursor {
  readonly kind: string;
  readonly groupId: number;
  readonly parentId: number;
  readonly seq: number;
  /** Paging a departed member's tombstones: the number of the last one sent. */
  readonly position?: number;
}

/** The scope owner of a person's own feed (docs/architecture.md "Delta sync"): minus their user id. */
export function personalScopeOwner(userId: number): number {
  return -userId;
}

/**
 * The first scope owner of the chat rooms (docs/architecture.md "Delta sync"): a room is no group,
 * its scope owner is this plus its id (groups are numbered below it, persons are negative). Frozen
 * with migration 0059, which writes it.
 */
export const ROOM_SCOPE_BASE = 100_000_000_000_000;

/** The scope owner of a chat room's messages. */
export function roomScopeOwner(roomId: number): number {
  return ROOM_SCOPE_BASE + roomId;
}

/** How long tombstones are kept: a cursor older than the newest pruned one answers 410. */
export const TOMBSTONE_KEEP_DAYS = 30;

/** The longest cursor read (a real one is under 80 characters). */
const CURSOR_MAX_CHARS = 200;
const CURSOR_TEXT = /^c1\.([A-Z_]{1,20})\.(-?\d{1,15})\.(\d{1,15})\.(\d{1,15})(?:\.(\d{1,15}))?$/;

/** The cursor as it is written in URLs. */
export function formatCursor(cursor: ChangeCursor): string {
  const position = cursor.position === undefined ? "" : `.${cursor.position}`;
  const text = `c1.${cursor.kind}.${cursor.groupId}.${cursor.parentId}.${cursor.seq}${position}`;
  return Buffer.from(text, "utf8").toString("base64url");
}

/** Reads a `changes-since` value. @throws ValidationError CHANGES_CURSOR_INVALID */
export function parseCursor(value: string): ChangeCursor {
  const invalid = () =>
    new ValidationError(
      "CHANGES_CURSOR_INVALID",
      "changes-since is not a cursor this server gave (take it from a feed's next-changes link).",
    );
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > CURSOR_MAX_CHARS || !/^[A-Za-z0-9_-]+$/.test(trimmed)) throw invalid();
  const match = CURSOR_TEXT.exec(Buffer.from(trimmed, "base64url").toString("utf8"));
  if (match === null) throw invalid();
  const numbers = [match[2], match[3], match[4]].map(Number);
  if (!numbers.every(Number.isSafeInteger)) throw invalid();
  const [groupId, parentId, seq] = numbers as [number, number, number];
  const position = match[5] === undefined ? undefined : Number(match[5]);
  return { kind: match[1]!, groupId, parentId, seq, ...(position === undefined ? {} : { position }) };
}

/**
 * Asserts the cursor belongs to this feed (a cursor of another group, kind or parent would skip or
 * repeat its changes). @throws ValidationError CHANGES_CURSOR_OTHER_FEED
 */
export function requireCursorOf(
  cursor: ChangeCursor,
  scope: { readonly kind: string; readonly groupId: number; readonly parentId: number },
): void {
  if (cursor.kind !== scope.kind || cursor.groupId !== scope.groupId || cursor.parentId !== scope.parentId) {
    throw new ValidationError(
      "CHANGES_CURSOR_OTHER_FEED",
      "changes-since is a cursor of another feed (another group, list or item); use this feed's next-changes link.",
    );
  }
}

/**
 * Asserts the changes after the cursor are all still known: no tombstone after it was pruned.
 * @throws GoneError CHANGES_CURSOR_EXPIRED
 */
export function requireCursorKept(cursor: ChangeCursor, horizon: number): void {
  if (cursor.seq < horizon) {
    throw new GoneError(
      "CHANGES_CURSOR_EXPIRED",
      `changes-since is older than the deletions this server keeps (${TOMBSTONE_KEEP_DAYS} days): read the whole feed again and follow its next-changes link.`,
    );
  }
}

/** Whether an item (topic, task, file) is in a list of this folder filter: the trash, or not it. */
export function showsInFolder(
  item: { readonly folderId: number | null; readonly trashed: boolean },
  filter: FolderFilter,
): boolean {
  switch (filter.kind) {
    case "trash":
      return item.trashed;
    case "all":
      return !item.trashed;
    case "unclassified":
      return !item.trashed && item.folderId === null;
    case "folder":
      return !item.trashed && item.folderId === filter.folderId;
  }
}

/** Whether a task is in a task list of these filters (as the list's query selects). */
export function showsTask(task: Task, folder: FolderFilter, filter: TaskFilter): boolean {
  if (!showsInFolder(task, folder)) return false;
  if (filter.notCompletedOnly && task.status === "COMPLETED") return false;
  if (filter.status !== undefined && task.status !== filter.status) return false;
  return filter.term === undefined || isDueWithin(task, filter.term);
}

/** Asserts a feed variant answers changes-since. @throws ValidationError CHANGES_NOT_SUPPORTED */
export function refuseChanges(what: string): never {
  throw new ValidationError("CHANGES_NOT_SUPPORTED", `changes-since is not supported for ${what}.`);
}
