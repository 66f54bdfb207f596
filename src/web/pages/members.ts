// A group's members, joined and invited (`/g/1:n/members`), and one member (`.../members/1:m`).
import type { FastifyInstance } from "fastify";
import { formatPair } from "../../domain/item-id.js";
import type { Member, MemberStatus } from "../../domain/member.js";
import { realAddressOf } from "../../domain/placeholder.js";
import { queryValue } from "../../http-kit/query.js";
import { readMemberListPage } from "../../services/item/area-page.js";
import { getMember } from "../../services/member/member.js";
import { readGroupMail } from "../../services/mail-notify/mail-settings.js";
import type { Chrome } from "../chrome.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { paged, readPageNumber, withQuery } from "../paging.js";
import { areaHead } from "./area-head.js";

/** `/g/:group/members` and `/g/:group/members/:member`. */
export function registerMemberPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/members", { GET: (page) => memberListPage(web, page) });
  registerPage(app, web, "/g/:group/members/:member", { GET: (page) => memberPage(web, page) });
}

function memberRow(chrome: Chrome, member: Member, viewerId: number) {
  return {
    ...member,
    href: chrome.u(`/g/${formatPair(member.groupId)}/members/${formatPair(member.id)}`),
    actionBase: chrome.u(`/g/${formatPair(member.groupId)}/members/${formatPair(member.id)}`),
    reading: [member.familyKana, member.givenKana].filter((part) => part !== "").join(" "),
    isYou: member.status === "JOIN" && member.userId === viewerId,
    // An imported placeholder nobody has claimed: the invite form offers its real address, if any.
    imported: member.placeholderEmail !== null,
    claimEmail: member.placeholderEmail === null ? "" : realAddressOf(member.placeholderEmail),
  };
}

/** What the invite form shows again after a refused address. */
export interface InviteFormState {
  readonly email: string;
  readonly error: string;
}

/** A refused manager's form, shown on the list: the invite form's problem, or one of an invitation's. */
export interface ListRefusal {
  readonly invite?: InviteFormState;
  /** A refused action on one invitation (sent again too soon), shown above the list. */
  readonly problem?: string;
  /** The refusal's status (400, 429). */
  readonly status: number;
  /** The tab to show (the invitations after a refused resend). */
  readonly tab?: MemberStatus;
}

/** The member list; `refusal` shows a refused form again, with its status. */
export async function memberListPage(web: WebContext, page: PageRequest, refusal?: ListRefusal) {
  const groupId = pathPair(page, "group");
  const asked = refusal?.tab ?? queryValue(page.query, "status")?.toUpperCase();
  const status: MemberStatus = asked === "INVITE" ? "INVITE" : "JOIN";
  const invite = refusal?.invite;
  const request = readPageNumber(page.query);
  const view = await readMemberListPage(web, page.actor, { groupId, status, page: request.fetch });
  const groupMail = await readGroupMail(web, page.actor, groupId);
  const path = `/g/${formatPair(groupId)}/members`;
  const counts = view.counts;
  const feedQuery = new URLSearchParams({ group: formatPair(groupId), "member-status": status });
  const groupPath = `/g/${formatPair(groupId)}`;
  return page.render(
    "members",
    {
      ...areaHead(web, page, view.group, "members", feedQuery),
      status,
      isManager: view.caller.manager,
      saved: queryValue(page.query, "saved") === "1",
      invite: invite ?? { email: "", error: undefined },
      problem: refusal?.problem,
      inviteAction: page.chrome.u(`${groupPath}/members/invite`),
      editHref: page.chrome.u(`${groupPath}/edit`),
      exportHref: page.chrome.u(`${groupPath}/members/export`),
      auditHref: page.chrome.u(`${groupPath}/audit`),
      webhooksHref: page.chrome.u(`${groupPath}/webhooks`),
      hooksHref: page.chrome.u(`${groupPath}/hooks`),
      leaveAction: page.chrome.u(`${groupPath}/leave`),
      groupMail,
      mailAction: page.chrome.u(`${groupPath}/mail`),
      mailSaved: queryValue(page.query, "mail") === "saved",
      tabs: [
        {
          href: page.chrome.u(path),
          label: page.chrome.t("members.joined", { n: counts.JOIN }),
          current: status === "JOIN",
        },
        {
          href: page.chrome.u(withQuery(path, { status: "INVITE" })),
          label: page.chrome.t("members.invited", { n: counts.INVITE }),
          current: status === "INVITE",
        },
      ],
      members: paged(
        view.members.map((member) => memberRow(page.chrome, member, page.actor.user.id)),
        request,
        (n) => page.chrome.u(withQuery(path, { status: status === "INVITE" ? "INVITE" : undefined, page: n })),
      ),
    },
    refusal?.status ?? 200,
  );
}

async function memberPage(web: WebContext, page: PageRequest) {
  const groupId = pathPair(page, "group");
  const view = await getMember(web, page.actor, { groupId, memberId: pathPair(page, "member") });
  const member = view.members[0];
  if (!member) throw new Error("getMember returned no member");
  return page.render("member", {
    title: `${member.name} · ${view.group.name}`,
    group: view.group,
    area: "members",
    member: memberRow(page.chrome, member, page.actor.user.id),
    isManager: view.caller.manager,
    actionBase: page.chrome.u(`/g/${formatPair(groupId)}/members/${formatPair(member.id)}`),
    leaveAction: page.chrome.u(`/g/${formatPair(groupId)}/leave`),
    backHref: page.chrome.u(
      withQuery(`/g/${formatPair(groupId)}/members`, { status: member.status === "INVITE" ? "INVITE" : undefined }),
    ),
  });
}
