import { type ContentRef, formatPair } from "./item-id.js";
import { KINDS } from "./kinds.js";

/**
 * Web pages of items under `{base_url}`: stable paths, whether or not the web interface serves
 * that page yet (docs/api.md "Answers"). `alternate` is the desktop page, `mobile` the phone page.
 */
export interface ItemLinks {
  readonly alternate: string;
  readonly mobile: string;
}

function both(baseUrl: string, path: string): ItemLinks {
  return { alternate: `${baseUrl}${path}`, mobile: `${baseUrl}/m${path}` };
}

/** A group's home page. */
export function groupLinks(baseUrl: string, groupId: number): ItemLinks {
  return both(baseUrl, `/g/${formatPair(groupId)}`);
}

/** The page of one area of a group (its board, task list, files). */
export function areaLinks(baseUrl: string, groupId: number, area: ContentRef["kind"]): ItemLinks {
  return both(baseUrl, `/g/${formatPair(groupId)}/${KINDS[area].area}`);
}

/** A topic, task or file. */
export function contentLinks(baseUrl: string, ref: ContentRef): ItemLinks {
  return both(baseUrl, `/g/${formatPair(ref.groupId)}/${KINDS[ref.kind].area}/${formatPair(ref.id)}`);
}

/** A comment: its parent's page, at the comment. */
export function commentLinks(baseUrl: string, parent: ContentRef, number: number): ItemLinks {
  const links = contentLinks(baseUrl, parent);
  return { alternate: `${links.alternate}#comment-${number}`, mobile: `${links.mobile}#comment-${number}` };
}

/** A member of a group. */
export function memberLinks(baseUrl: string, groupId: number, memberId: number): ItemLinks {
  return both(baseUrl, `/g/${formatPair(groupId)}/members/${formatPair(memberId)}`);
}

/** The caller's own schedule page. */
export function scheduleLinks(baseUrl: string): ItemLinks {
  return both(baseUrl, "/schedule");
}

/** A personal event: a page of its owner's schedule. */
export function personalEventLinks(baseUrl: string, eventId: number): ItemLinks {
  return both(baseUrl, `/schedule/${formatPair(eventId)}`);
}
