import { element, utcTimestamp } from "../atom/build.js";
import type { Group } from "../domain/group.js";
import { formatGroupId, formatPair } from "../domain/item-id.js";
import { type Member, type MemberAction, isCallerEntry, memberAbilities } from "../domain/member.js";
import type { MemberListView } from "../services/member/member.js";
import { type Viewer, feedDocument, newestOf, webLinkElements, titleElement } from "./feed.js";
import { groupLinks, memberLinks } from "../domain/item-links.js";
import { groupElement } from "./topic.js";
import { changeParts, nextChangesLink } from "./changes.js";

/**
 * The member-list feed (`GET /api/gwMemberList/V2`), `cbl:totalCount` after `updated`, then a list
 * read's next-changes link and a changes-since read's tombstones.
 */
export function memberListFeed(
  baseUrl: string,
  viewer: Viewer,
  view: MemberListView,
  now: number,
  nextChanges?: string | undefined,
): string {
  const caller = { userId: view.caller.userId, manager: view.caller.manager };
  const { tombstones, entries } = changeParts(
    view.changes,
    view.members,
    (member) => member.id,
    (member) => {
      const abilities = memberAbilities(member, caller, view.managerCount, view.joinedCount);
      return memberEntry(baseUrl, view.group, member, { ...abilities, self: isCallerEntry(member, caller.userId) });
    },
    (gone) => formatPair(gone.itemId),
  );
  return feedDocument(
    {
      title: view.group.name,
      id: formatGroupId(view.group.id),
      alternate: `${groupLinks(baseUrl, view.group.id).alternate}/members`,
      viewer,
      updated: newestOf(view.members, now),
      extra: element("cbl:totalCount", {}, String(view.totalCount)) + nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** What a member entry says besides the member's own data. */
interface EntryOptions {
  readonly invitable: MemberAction;
  readonly deletable: MemberAction;
  readonly leavable: boolean;
  /** The caller's own entry has no link (docs/api.md "Members"). */
  readonly self: boolean;
}

/** A member entry; invitations carry their label as title, an empty author and their expiry. */
export function memberEntry(baseUrl: string, group: Group, member: Member, options: EntryOptions): string {
  const id = formatPair(member.id);
  const joined = member.status === "JOIN";
  return (
    "<entry>" +
    element("id", {}, id) +
    titleElement(member.name) +
    (options.self ? "" : webLinkElements(memberLinks(baseUrl, group.id, member.id))) +
    (joined && member.userId !== null
      ? `<author>${element("name", {}, member.name)}${element("uri", {}, formatPair(member.userId))}</author>`
      : `<author>${element("name", {}, "")}</author>`) +
    element("updated", {}, utcTimestamp(member.updatedAt)) +
    element("cblGrp:groupwareMemberId", {}, id) +
    groupElement(group) +
    (joined && member.userId !== null
      ? element("cbl:who", { valueString: member.name, id: formatPair(member.userId) })
      : "") +
    (joined
      ? element("cblPrfl:familyKana", {}, member.familyKana) + element("cblPrfl:givenKana", {}, member.givenKana)
      : "") +
    element("cblGrp:manager", {}, String(member.manager)) +
    actionElement("cblGrp:invitable", options.invitable) +
    actionElement("cblGrp:deletable", options.deletable) +
    element("cblGrp:leavable", {}, String(options.leavable)) +
    (!joined && member.inviteExpiresAt !== null
      ? element("cbl:when", { endTime: utcTimestamp(member.inviteExpiresAt) })
      : "") +
    "</entry>"
  );
}

function actionElement(qname: string, action: MemberAction): string {
  return element(qname, { authority: String(action.authority) }, String(action.applies));
}
