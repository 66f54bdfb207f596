import { element, utcTimestamp } from "../atom/build.js";
import type { ChangeStep, ChangesView } from "../services/item/changes.js";

/** A deleted item's step: its id as the feed writes it, and when it went. */
export type Tombstone = Extract<ChangeStep, { kind: "deleted" }>;

/** A list feed's entries, and the tombstones of a changes-since read. */
export interface ChangeParts {
  /** `<at:deleted-entry>` elements, oldest change first: they go before the entries (see below). */
  readonly tombstones: string;
  readonly entries: readonly string[];
}

/**
 * A list feed's entries: the items in list order, or for a changes-since read the entries of the
 * items in change order and RFC 6721 tombstones (`<at:deleted-entry ref when>`) of the others. The
 * tombstones stand among the feed's head elements, before the entries: Atom's schema allows
 * foreign elements there only, and an item is on a page once (entry or tombstone), so their order
 * against the entries changes nothing for a client applying the page.
 */
export function changeParts<T>(
  changes: ChangesView | undefined,
  items: readonly T[],
  idOf: (item: T) => number,
  entryOf: (item: T) => string,
  refOf: (tombstone: Tombstone) => string,
): ChangeParts {
  if (changes?.steps === undefined) return { tombstones: "", entries: items.map(entryOf) };
  const byId = new Map(items.map((item) => [idOf(item), item]));
  let tombstones = "";
  const entries: string[] = [];
  for (const step of changes.steps) {
    const item = step.kind === "entry" ? byId.get(step.itemId) : undefined;
    if (item !== undefined) entries.push(entryOf(item));
    else if (step.kind === "deleted") tombstones += tombstoneElement(refOf(step), step.when);
  }
  return { tombstones, entries };
}

/** `<at:deleted-entry ref="ID" when="...">`, the namespace declared on the root (`at`, NS.at). */
export function tombstoneElement(ref: string, when: number): string {
  return element("at:deleted-entry", { ref, when: utcTimestamp(when) });
}

/** `<link rel="next-changes">`, after every element clients read today; empty without an address. */
export function nextChangesLink(href: string | undefined): string {
  return href === undefined ? "" : element("link", { rel: "next-changes", type: "application/atom+xml", href });
}
