import type { Actor } from "../../domain/access.js";
import { type ChangeCursor, TOMBSTONE_KEEP_DAYS, requireCursorKept, requireCursorOf } from "../../domain/changes.js";
import { type Group, groupNotFound, requireMembership } from "../../domain/group.js";
import { formatPair } from "../../domain/item-id.js";
import type { ChangeScope, ItemChange } from "../../store/queries/item-changes.js";
import type { Store, Tx } from "../../store/store.js";
import type { Clock } from "../../clock.js";

/** One step of a feed's changes, in change order: an item as it is now, or its tombstone. */
export type ChangeStep =
  | { readonly kind: "entry"; readonly itemId: number }
  | {
      readonly kind: "deleted";
      readonly itemId: number;
      readonly refNumber: number;
      readonly when: number;
      /** The row's parent: a comment's item; a group task's group in a person's ToDo. */
      readonly parentId: number;
    };

/** What a list read carries for delta sync: the next cursor, and for a changes-since read the steps. */
export interface ChangesView {
  readonly next: ChangeCursor;
  /** A changes-since read: entries and tombstones, oldest change first. */
  readonly steps?: readonly ChangeStep[];
}

/** One feed of delta sync: its scope, how its items load, and which of them it shows. */
export interface ChangeFeed<T> {
  readonly scope: ChangeScope;
  /** The items among these ids (keys) that exist (in any state). */
  load(tx: Tx, ids: readonly number[]): Promise<readonly T[]>;
  idOf(item: T): number;
  /**
   * A feed of several kinds (`scope.kinds`): the key of a change row, as `idOf` gives it for the
   * item (ids of different kinds may be equal). The item's id by default.
   */
  keyOf?(row: ItemChange): number;
  /** Whether the feed, as the caller asked for it (folder, trash, filters), shows the item. */
  shows(item: T): boolean;
  /** Checks of a member's read before any item is read (the folder of the filter exists). */
  check?(tx: Tx, group: Group): Promise<void>;
}

/** A changes-since read: the group, the items shown (in change order) and the changes. */
export interface FeedChanges<T> {
  readonly group: Group;
  /** The caller left the group: the changes are tombstones of what they may hold, nothing else. */
  readonly departed: boolean;
  readonly items: readonly T[];
  readonly changes: ChangesView;
}

/**
 * The next cursor of a plain read: the scope's latest change, read before the items, so that a
 * change committed between the two comes again rather than never.
 */
export async function latestCursor(tx: Tx, scope: ChangeScope): Promise<ChangesView> {
  return { next: { ...scope, seq: await tx.itemChanges.latest(scope) } };
}

/**
 * The changes of a feed after a cursor, at most `limit`. A member gets every item changed after it,
 * as an entry when the feed shows it and as a tombstone otherwise (deleted, trashed, moved out of
 * the filter). A former member with a cursor from before their departure gets a tombstone for
 * everything of the feed they may hold; after that, GROUP_NOT_JOINED as for anyone else.
 * @throws ValidationError CHANGES_CURSOR_OTHER_FEED; NotFoundError GROUP_NOT_FOUND
 * @throws ForbiddenError GROUP_NOT_JOINED; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function readChanges<T>(
  tx: Tx,
  actor: Actor,
  feed: ChangeFeed<T>,
  cursor: ChangeCursor,
  limit: number,
): Promise<FeedChanges<T>> {
  const { scope } = feed;
  requireCursorOf(cursor, scope);
  const group = await tx.groups.findById(scope.groupId);
  if (!group) throw groupNotFound(formatPair(scope.groupId));
  const membership = await tx.memberships.findJoined(scope.groupId, actor.user.id);
  if (membership === undefined) {
    const read = await departedChanges(tx, actor, feed, cursor, limit, notJoined);
    // No name or summary of the group: the former member may no longer read them.
    return { group: { ...group, name: "", summary: "" }, ...read };
  }
  requireCursorKept(cursor, await tx.itemChanges.horizon(scope.groupId));
  await feed.check?.(tx, group);
  const { items, changes } = await changesAfter(tx, feed, cursor, limit);
  return { group, departed: false, items, changes };
}

/**
 * The changes of a feed whose readers are the members of something other than a group (a chat
 * room: docs/architecture.md "Delta sync", room scopes), after a cursor, at most `limit`: for a
 * member as {@link readChanges} gives them; for a former member with a cursor from before their
 * departure, the tombstones of what they may hold; for anyone else, `refuse` (what every read of
 * the room answers them).
 * @throws ValidationError CHANGES_CURSOR_OTHER_FEED; GoneError CHANGES_CURSOR_EXPIRED; what `refuse` throws
 */
export async function readMemberChanges<T>(
  tx: Tx,
  actor: Actor,
  feed: ChangeFeed<T>,
  cursor: ChangeCursor,
  limit: number,
  access: { readonly member: boolean; readonly refuse: () => never },
): Promise<Omit<FeedChanges<T>, "group">> {
  requireCursorOf(cursor, feed.scope);
  if (!access.member) return departedChanges(tx, actor, feed, cursor, limit, access.refuse);
  requireCursorKept(cursor, await tx.itemChanges.horizon(feed.scope.groupId));
  return { departed: false, ...(await changesAfter(tx, feed, cursor, limit)) };
}

/**
 * The changes of a person's feed (docs/architecture.md "Delta sync": a scope of the caller's own,
 * `groupId` = minus their id) after a cursor, at most `limit`: every item changed after it, as an
 * entry when the feed shows it and as a tombstone otherwise (deleted, filtered out, or in a group
 * the caller left). No membership decides: the scope is the caller's.
 * @throws ValidationError CHANGES_CURSOR_OTHER_FEED; GoneError CHANGES_CURSOR_EXPIRED
 */
export async function readPersonalChanges<T>(
  tx: Tx,
  feed: ChangeFeed<T>,
  cursor: ChangeCursor,
  limit: number,
): Promise<{ readonly items: readonly T[]; readonly changes: ChangesView }> {
  requireCursorOf(cursor, feed.scope);
  requireCursorKept(cursor, await tx.itemChanges.horizon(feed.scope.groupId));
  return changesAfter(tx, feed, cursor, limit);
}

/** One page of a feed's changes after the cursor: the items shown, and the steps in change order. */
async function changesAfter<T>(
  tx: Tx,
  feed: ChangeFeed<T>,
  cursor: ChangeCursor,
  limit: number,
): Promise<{ readonly items: readonly T[]; readonly changes: ChangesView }> {
  const { scope } = feed;
  const keyOf = feed.keyOf ?? ((row: ItemChange) => row.itemId);
  const rows = await tx.itemChanges.after(scope, cursor.seq, limit + 1);
  const page = rows.slice(0, limit);
  const live = new Map<number, T>();
  const ids = page.filter((row) => !row.deleted).map(keyOf);
  for (const item of ids.length === 0 ? [] : await feed.load(tx, ids)) live.set(feed.idOf(item), item);
  const items: T[] = [];
  const steps = page.map((row): ChangeStep => {
    const item = live.get(keyOf(row));
    if (item === undefined || !feed.shows(item)) return tombstoneOf({ ...row, itemId: keyOf(row) }, row.changedAt);
    items.push(item);
    return { kind: "entry", itemId: keyOf(row) };
  });
  const seq = page.at(-1)?.seq ?? cursor.seq;
  return { items, changes: { next: { ...scope, seq }, steps } };
}

/** A former member's read: tombstones of what they may hold, then (cursor at the departure) `refuse`. */
async function departedChanges<T>(
  tx: Tx,
  actor: Actor,
  feed: ChangeFeed<T>,
  cursor: ChangeCursor,
  limit: number,
  refuse: () => never,
): Promise<Omit<FeedChanges<T>, "group">> {
  const { scope } = feed;
  const departure = await tx.itemChanges.departure(scope.groupId, actor.user.id);
  // A cursor given at or after the departure (or a caller who never was a member): not theirs to read.
  if (departure === undefined || cursor.seq >= departure.seq) return refuse();
  requireCursorKept(cursor, await tx.itemChanges.horizon(scope.groupId));
  const rows = await tx.itemChanges.heldAt(scope, departure.seq, cursor.seq, cursor.position ?? 0, limit + 1);
  const page = rows.slice(0, limit);
  const steps = page.map((row) => tombstoneOf(row, Math.max(row.changedAt, departure.at)));
  const last = page.at(-1);
  const next: ChangeCursor =
    rows.length > limit && last !== undefined
      ? { ...scope, seq: cursor.seq, position: last.seq }
      : { ...scope, seq: departure.seq };
  return { departed: true, items: [], changes: { next, steps } };
}

function tombstoneOf(row: ItemChange, when: number): ChangeStep {
  return { kind: "deleted", itemId: row.itemId, refNumber: row.refNumber, when, parentId: row.parentId };
}

/** GROUP_NOT_JOINED, as every read of a group the caller is not in answers. @throws ForbiddenError */
function notJoined(): never {
  requireMembership(undefined);
  throw new Error("unreachable: requireMembership throws");
}

/**
 * Deletes the tombstones older than TOMBSTONE_KEEP_DAYS (by the database's clock, which stamps
 * them); a cursor from before the newest pruned one of its group then answers 410. Run hourly by
 * the audit log's pass (services/audit/retention.ts); answers how many were deleted.
 */
export async function pruneTombstones(ctx: { readonly store: Store; readonly clock: Clock }): Promise<number> {
  const before = ctx.clock.now() - TOMBSTONE_KEEP_DAYS * 86_400_000;
  return ctx.store.transaction((tx) => tx.itemChanges.prune(before));
}
