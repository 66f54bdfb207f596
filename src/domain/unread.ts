// What is new to a reader in a group's lists: an item they never opened, and the comments others
// wrote since they last opened it (or since they marked the whole group read, whichever is later).

/** An item of a list as far as "new" is concerned. */
export interface SeenableItem {
  readonly id: number;
  readonly authorId: number;
  /** When it was made (a topic's publication). */
  readonly createdAt: number;
}

/** What a list shows of an item's news for the reader. */
export interface UnreadMark {
  /** Never opened by the reader (and not theirs), or made after they marked the group read. */
  readonly isNew: boolean;
  /** Comments others wrote since the reader last saw the item; 0 for a new item. */
  readonly newComments: number;
}

/**
 * From when the reader has seen the item: the later of their last visit and the group's "mark all
 * read"; for the reader's own item, at the latest its making; undefined when never seen.
 */
export function seenSince(
  item: SeenableItem,
  readerId: number,
  visit: number | undefined,
  groupReadAt: number | undefined,
): number | undefined {
  const times = [visit, groupReadAt, item.authorId === readerId ? item.createdAt : undefined].filter(
    (time): time is number => time !== undefined,
  );
  return times.length === 0 ? undefined : Math.max(...times);
}

/** Whether the item itself is new: never seen, or made after the reader's last "mark all read" with no visit since. */
export function isNewItem(item: SeenableItem, since: number | undefined): boolean {
  return since === undefined || item.createdAt > since;
}
