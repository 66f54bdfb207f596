import type { XmlElement } from "../../../atom/parse.js";
import { ValidationError } from "../../../domain/errors.js";
import { type LikeTarget, parseLikeTarget } from "../../../domain/notification.js";
import { clip } from "../../../http-kit/query.js";
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

/** A like (`insert`) or unlike (`delete`). @throws ValidationError as readToggle, INVALID_ID */
export function readLikeToggle(feed: XmlElement): { readonly target: LikeTarget; readonly on: boolean } {
  const { id, on } = readToggle(feed, "like", readLikeTarget);
  return { target: id, on };
}
