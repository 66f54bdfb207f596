import { NS } from "../atom/namespaces.js";
import { type XmlElement, attribute, child, childText, children } from "../atom/parse.js";
import { ValidationError } from "../domain/errors.js";
import type { ItemRef } from "../domain/item-id.js";
import { readItemId } from "../http-kit/parameters.js";
import { clip } from "../http-kit/query.js";

/**
 * `cbl:operation type`, lower-cased; undefined when absent. Clients put it before or after
 * `id`/`entry`, and a few inside the entry (docs/api.md "Requests": be tolerant).
 */
export function readOperation(feed: XmlElement): string | undefined {
  const element =
    child(feed, NS.cbl, "operation") ??
    children(feed, NS.atom, "entry")
      .map((e) => child(e, NS.cbl, "operation"))
      .find(Boolean);
  return element ? (attribute(element, "type") ?? "").trim().toLowerCase() : undefined;
}

/**
 * The one entry of a write; more than one is refused (one item per request).
 * @throws ValidationError ENTRY_REQUIRED, MULTIPLE_ENTRIES
 */
export function requireSingleEntry(feed: XmlElement, what: string): XmlElement {
  if (feed.ns === NS.atom && feed.local === "entry") return feed;
  const entries = children(feed, NS.atom, "entry");
  if (entries.length > 1) {
    throw new ValidationError("MULTIPLE_ENTRIES", `One ${what} per request: the feed holds ${entries.length} entries.`);
  }
  const [entry] = entries;
  if (!entry) throw new ValidationError("ENTRY_REQUIRED", `The feed holds no entry; one ${what} entry was expected.`);
  return entry;
}

/** `entry/summary` text (or `content` from clients that send that instead). */
export function summaryOf(entry: XmlElement): string | undefined {
  return childText(entry, NS.atom, "summary") ?? childText(entry, NS.atom, "content");
}

/** `cblCmnt:replyTo`: a comment number. @throws ValidationError INVALID_REPLY_TO */
export function readReplyTo(entry: XmlElement): number | undefined {
  const text = childText(entry, NS.cblCmnt, "replyTo")?.trim();
  if (text === undefined || text === "") return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(text)) {
    throw new ValidationError("INVALID_REPLY_TO", `cblCmnt:replyTo must be a comment number (got "${clip(text)}").`);
  }
  return Number(text);
}

/**
 * A toggle write (like, favorite): `cbl:operation` insert (the default) or delete, and the one
 * entry's id as `readId` reads it.
 * @throws ValidationError INVALID_OPERATION, ENTRY_REQUIRED, MULTIPLE_ENTRIES, ENTRY_ID_REQUIRED, and readId's
 */
export function readToggle<T>(
  feed: XmlElement,
  what: string,
  readId: (text: string, field: string) => T,
): { readonly id: T; readonly on: boolean } {
  const operation = readOperation(feed) ?? "insert";
  if (operation !== "insert" && operation !== "delete") {
    throw new ValidationError(
      "INVALID_OPERATION",
      `cbl:operation type "${clip(operation)}" is not one of insert, delete.`,
    );
  }
  const entry = requireSingleEntry(feed, what);
  const id = childText(entry, NS.atom, "id");
  if (id === undefined || id.trim() === "")
    throw new ValidationError("ENTRY_ID_REQUIRED", `entry/id (the id of the item to ${what}) is missing.`);
  return { id: readId(id, "entry/id"), on: operation === "insert" };
}

/** A toggle of one group item (favorite). @throws ValidationError as readToggle, INVALID_ID */
export function readItemToggle(feed: XmlElement, what: string): { readonly ref: ItemRef; readonly on: boolean } {
  const { id, on } = readToggle(feed, what, readItemId);
  return { ref: id, on };
}
