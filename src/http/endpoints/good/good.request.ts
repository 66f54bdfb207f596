import type { XmlElement } from "../../../atom/parse.js";
import { ValidationError } from "../../../domain/errors.js";
import { type LikeTarget, parseLikeTarget } from "../../../domain/notification.js";
import { refuseChanges } from "../../../domain/changes.js";
import { type QueryValues, clip, queryValue } from "../../../http-kit/query.js";
import { readToggle } from "../../atom-request.js";

/** What a like names, from `field`: a group's item or comment, or a chat message. @throws ValidationError INVALID_ID */
export function readLikeTarget(text: string, field: string): LikeTarget {
  const target = parseLikeTarget(text);
  if (target === undefined)
    throw new ValidationError(
      "INVALID_ID",
      `${field} "${clip(text)}" is not an item id such as GROUP,1:1,BOARD,1:7 or a chat message id.`,
    );
  return target;
}

/**
 * `GET /api/good/V2`: the item (or chat message) whose likers are asked for. One entry, not a list:
 * `changes-since` is refused (docs/api.md "Delta sync"; a conditional GET serves that entry).
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_ID, CHANGES_NOT_SUPPORTED
 */
export function readLikersQuery(query: QueryValues): LikeTarget {
  const id = queryValue(query, "id");
  if (id === undefined)
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id (the item's id) is required.");
  const target = readLikeTarget(id, "id");
  if (queryValue(query, "changes-since") !== undefined)
    refuseChanges("likes (one item's entry, not a list; use If-None-Match)");
  return target;
}

/** A like (`insert`) or unlike (`delete`). @throws ValidationError as readToggle, INVALID_ID */
export function readLikeToggle(feed: XmlElement): { readonly target: LikeTarget; readonly on: boolean } {
  const { id, on } = readToggle(feed, "like", readLikeTarget);
  return { target: id, on };
}
