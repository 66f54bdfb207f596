import { ValidationError } from "../../../domain/errors.js";
import { parsePair } from "../../../domain/item-id.js";
import { readGroupParameter } from "../../../http-kit/parameters.js";
import { type QueryValues, queryValue } from "../../../http-kit/query.js";
import type { IconSubject } from "../../../services/account/icon.js";

/**
 * `type=user&user=1:n` (a `group` beside it is ignored: there are no per-group pictures) or
 * `type=group&group=1:n`.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_ICON_TYPE, INVALID_USER, INVALID_GROUP
 */
export function readIconQuery(query: QueryValues): IconSubject {
  const type = queryValue(query, "type");
  if (type === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter type is required.");
  if (type === "group") return { kind: "group", groupId: readGroupParameter(query) };
  if (type !== "user") throw new ValidationError("INVALID_ICON_TYPE", "type must be user or group.");
  const user = queryValue(query, "user");
  if (user === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter user is required.");
  const userId = parsePair(user.trim());
  if (userId === undefined) throw new ValidationError("INVALID_USER", "user must be a user id such as 1:12.");
  return { kind: "user", userId };
}
