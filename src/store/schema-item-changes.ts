// Table shapes of delta sync (migration 0054), part of `Database` (schema.ts).

/**
 * The change index and tombstones of the group feeds: one row per item (and per departure from a
 * group), with the sequence number of its last change; `deleted` = 1 for a deleted item.
 */
export interface ItemChangesTable {
  /** BOARD, TASK, CABINET, `<parent kind>_COMMENT`, or MEMBER_LEFT. */
  kind: string;
  group_id: number;
  /** A comment's parent item; 0 for every other kind. */
  parent_id: number;
  /** The item's id (a departure: the user's). */
  item_id: number;
  /** A comment's number (its id names it); 0 for every other kind. */
  ref_number: number;
  /** Null only inside the writing transaction on PostgreSQL (numbered at commit). */
  seq: number | null;
  /** The number of the item's first change (its creation, or the backfill of migration 0054). */
  first_seq: number | null;
  changed_at: number;
  deleted: number;
}

/** Per group, the newest number of the tombstones pruned: an older cursor answers 410. */
export interface ItemChangeHorizonsTable {
  group_id: number;
  pruned_seq: number;
}
