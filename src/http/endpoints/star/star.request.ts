import type { ChangeCursor } from "../../../domain/changes.js";
import { refuseChanges } from "../../../domain/changes.js";
import type { ItemRef } from "../../../domain/item-id.js";
import type { PageWindow } from "../../../store/page-window.js";
import { readItemId, readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import { readChangesSince } from "../../changes-link.js";

/** A favorites read: one item (`id`), or the list with paging and delta sync. */
export type FavoritesQuery =
  { readonly ref: ItemRef } | { readonly page: PageWindow; readonly changesSince: ChangeCursor | undefined };

/**
 * Reads `GET /api/star/V2` parameters. With `id`, paging is ignored (docs/api.md "Favorites"), bad
 * paging values included; `changes-since` follows the list only.
 * @throws ValidationError INVALID_ID, paging's, CHANGES_CURSOR_INVALID, CHANGES_WITH_START_INDEX, CHANGES_NOT_SUPPORTED
 */
export function readFavoritesQuery(query: QueryValues): FavoritesQuery {
  const id = queryValue(query, "id");
  if (id !== undefined) {
    if (queryValue(query, "changes-since") !== undefined) refuseChanges("one favorite (id); follow the list's link");
    return { ref: readItemId(id, "id") };
  }
  const page = readPage(query);
  return { page, changesSince: readChangesSince(query, page) };
}
