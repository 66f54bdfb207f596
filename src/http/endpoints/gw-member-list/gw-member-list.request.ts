import { ValidationError } from "../../../domain/errors.js";
import { parsePair } from "../../../domain/item-id.js";
import type { MemberStatus } from "../../../domain/member.js";
import type { PageWindow } from "../../../store/page-window.js";
import { type QueryValues, clip, queryValue } from "../../../http-kit/query.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** A member-list read: a page of one status, or one member. */
export type MemberRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly status: MemberStatus;
      readonly page: PageWindow;
      readonly changesSince: ChangeCursor | undefined;
    }
  | { readonly kind: "one"; readonly groupId: number; readonly memberId: number };

/**
 * Reads `GET /api/gwMemberList/V2` parameters; with `user`, every other optional parameter is
 * ignored (docs/api.md "Members"), even a malformed one.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_GROUP, INVALID_USER, INVALID_MEMBER_STATUS, paging, cursor codes
 */
export function readMemberQuery(query: QueryValues): MemberRead {
  const groupId = readGroupParameter(query);
  const user = queryValue(query, "user");
  if (user !== undefined) {
    const memberId = parsePair(user);
    if (memberId === undefined)
      throw new ValidationError("INVALID_USER", `user must be a member id such as 1:5 (got "${clip(user)}").`);
    return { kind: "one", groupId, memberId };
  }
  const page = readPage(query);
  const status = readStatus(queryValue(query, "member-status"));
  return { kind: "list", groupId, status, page, changesSince: readChangesSince(query, page) };
}

function readStatus(value: string | undefined): MemberStatus {
  const upper = value?.trim().toUpperCase();
  if (upper === undefined || upper === "" || upper === "JOIN") return "JOIN";
  if (upper === "INVITE") return "INVITE";
  throw new ValidationError(
    "INVALID_MEMBER_STATUS",
    `member-status must be JOIN or INVITE (got "${clip(value ?? "")}").`,
  );
}
