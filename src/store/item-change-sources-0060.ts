/**
 * What migration 0060 adds to the delta sync's change index (item_changes): the favorites list, a
 * person's scope (group_id = minus the user's id). Frozen with migration 0060: a later change is a
 * new migration.
 */

/** The kind of a favorite's change row: `STAR_` + the favorited item's kind (ids of two kinds may be equal). */
export const STAR_KIND_PREFIX = "STAR_";

/** The cursor's kind of the favorites feed (its rows are of the kinds below). */
export const STAR_KIND = "STAR";

/** The kinds a favorite names, each with the table of its items (an edit or delete there renumbers the favorites). */
export const STAR_ITEM_TABLES_0060 = [
  { itemKind: "BOARD", table: "topics" },
  { itemKind: "TASK", table: "tasks" },
  { itemKind: "CABINET", table: "files" },
  { itemKind: "GW_SCHEDULE", table: "events" },
  { itemKind: "COMMENT", table: "comments" },
] as const;

/** The change kinds of the favorites feed, one per favorited kind. */
export const STAR_KINDS: readonly string[] = STAR_ITEM_TABLES_0060.map(({ itemKind }) => STAR_KIND_PREFIX + itemKind);

/** The trigger names of migration 0060 (the same on both engines), by table. */
export const STAR_TRIGGERS_0060: readonly { readonly table: string; readonly events: readonly string[] }[] = [
  { table: "favorites", events: ["insert", "delete"] },
  { table: "memberships", events: ["insert", "update", "delete"] },
  ...STAR_ITEM_TABLES_0060.map(({ table }) => ({ table, events: ["update", "delete"] })),
];
