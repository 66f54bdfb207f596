import { NS } from "../../../atom/namespaces.js";
import { type XmlElement, childText, children } from "../../../atom/parse.js";
import { ValidationError } from "../../../domain/errors.js";
import { type ItemRef, parseChatId, parseItemId } from "../../../domain/item-id.js";
import { type NotificationCategory, parseCategory } from "../../../domain/notification.js";
import type { NotificationQuery } from "../../../services/notification/notification.js";
import { readGroupId, readPage } from "../../../http-kit/parameters.js";
import { type QueryValues, queryFlag, queryValue } from "../../../http-kit/query.js";

/**
 * `GET /api/notification/V2`: `unconfirmed`, `include-rule-out`, `embed-attachment` (true in any
 * letter case), `category` (one value), `group` and paging.
 * @throws ValidationError INVALID_CATEGORY, INVALID_GROUP, INVALID_START_INDEX, INVALID_MAX_RESULTS; NotFoundError GROUP_NOT_FOUND
 */
export function readNotificationQuery(query: QueryValues): NotificationQuery {
  const category = queryValue(query, "category")?.trim();
  const group = queryValue(query, "group")?.trim();
  return {
    unconfirmedOnly: queryFlag(query, "unconfirmed"),
    includeRuledOut: queryFlag(query, "include-rule-out"),
    embedAttachments: queryFlag(query, "embed-attachment"),
    category: category === undefined || category === "" ? null : parseCategory(category),
    groupId: group === undefined || group === "" ? null : readGroupId(group, "group"),
    page: readPage(query),
  };
}

/**
 * The `category` of a confirming POST: MENTION confirms mention notifications; none (or another
 * category) the others. @throws ValidationError INVALID_CATEGORY
 */
export function readConfirmCategory(query: QueryValues): NotificationCategory | null {
  const category = queryValue(query, "category")?.trim();
  return category === undefined || category === "" ? null : parseCategory(category);
}

/**
 * A confirmation (notifications and like notifications alike): one `entry/id` per item, any
 * other children (such as `updated`) ignored. An id that names nothing this server holds, or no
 * id at all, counts as an unknown id: undefined, ignored by the service but counted for the limit.
 * @throws ValidationError FEED_REQUIRED
 */
export function readConfirmation(feed: XmlElement): { readonly ids: readonly (ItemRef | undefined)[] } {
  return { ids: confirmedIds(feed).map((id) => (id === undefined ? undefined : parseItemId(id))) };
}

/** A confirmation of M_CHAT notifications: the room of each entry id (undefined: not a room id). @throws ValidationError FEED_REQUIRED */
export function readChatConfirmation(feed: XmlElement): (number | undefined)[] {
  return confirmedIds(feed).map((id) => {
    const ref = id === undefined ? undefined : parseChatId(id);
    return ref?.messageNumber === undefined ? ref?.roomId : undefined;
  });
}

/** The entry ids of a confirmation (undefined for an entry without one). @throws ValidationError FEED_REQUIRED */
export function confirmedIds(feed: XmlElement): (string | undefined)[] {
  if (feed.ns !== NS.atom || (feed.local !== "feed" && feed.local !== "entry")) {
    throw new ValidationError(
      "FEED_REQUIRED",
      "The body must be an Atom feed with one entry per notification to confirm.",
    );
  }
  const entries = feed.local === "entry" ? [feed] : children(feed, NS.atom, "entry");
  return entries.map((entry) => childText(entry, NS.atom, "id"));
}
