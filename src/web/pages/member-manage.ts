// What managers do on the members pages: invite an e-mail address by mail (`/g/1:n/members/invite`),
// send an invitation again (`.../members/1:m/resend`), remove a member or withdraw an invitation
// (`.../remove`), make a member a manager or not (`.../manager`), invite the person of an imported
// placeholder member to take it over (`.../claim`).
import type { FastifyInstance } from "fastify";
import { TooManyRequestsError, ValidationError } from "../../domain/errors.js";
import { formatPair } from "../../domain/item-id.js";
import {
  type IssuedInvitation,
  inviteByEmail,
  removeGroupMember,
  renewInvitation,
  setMemberManager,
} from "../../services/member/member-manage.js";
import { invitePlaceholder } from "../../services/member/placeholder-claim.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { withQuery } from "../paging.js";
import { memberListPage } from "./members.js";

/** The managers' member routes. */
export function registerMemberManagePages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/members/invite", {
    async POST(page) {
      const groupId = pathPair(page, "group");
      const email = page.form.get("email") ?? "";
      try {
        return showLink(web, page, await inviteByEmail(web, page.actor, { groupId, email }));
      } catch (error) {
        const refused = personsMistake(page, error);
        // The list again, with the problem and what was typed by the invite form.
        return memberListPage(web, page, { invite: { email, error: refused.message }, status: refused.status });
      }
    },
  });
  registerPage(app, web, "/g/:group/members/:member/resend", {
    async POST(page) {
      const input = { groupId: pathPair(page, "group"), memberId: pathPair(page, "member") };
      try {
        return showLink(web, page, await renewInvitation(web, page.actor, input));
      } catch (error) {
        if (!(error instanceof TooManyRequestsError)) throw error;
        const refused = personsMistake(page, error);
        return memberListPage(web, page, { problem: refused.message, status: refused.status, tab: "INVITE" });
      }
    },
  });
  // Handing an imported placeholder over to its person (issue #32).
  registerPage(app, web, "/g/:group/members/:member/claim", {
    async POST(page) {
      const input = {
        groupId: pathPair(page, "group"),
        memberId: pathPair(page, "member"),
        email: page.form.get("email") ?? "",
      };
      try {
        return showLink(web, page, await invitePlaceholder(web, page.actor, input));
      } catch (error) {
        const refused = personsMistake(page, error);
        return memberListPage(web, page, { problem: refused.message, status: refused.status });
      }
    },
  });
  registerPage(app, web, "/g/:group/members/:member/remove", {
    async POST(page) {
      const groupId = pathPair(page, "group");
      const removed = await removeGroupMember(web, page.actor, { groupId, memberId: pathPair(page, "member") });
      if (removed.status === "JOIN" && removed.userId === page.actor.user.id) return page.redirect("/?left=1");
      const status = removed.status === "INVITE" ? "INVITE" : undefined;
      return page.redirect(withQuery(`/g/${formatPair(groupId)}/members`, { status }));
    },
  });
  registerPage(app, web, "/g/:group/members/:member/manager", {
    async POST(page) {
      const input = {
        groupId: pathPair(page, "group"),
        memberId: pathPair(page, "member"),
        manager: page.form.get("manager") === "true",
      };
      await setMemberManager(web, page.actor, input);
      return page.redirect(`/g/${formatPair(input.groupId)}/members/${formatPair(input.memberId)}`);
    },
  });
}

/**
 * A refusal the person can act on (a bad address, a bound reached): its text in the page's
 * language and its status, with Retry-After when it says to wait. Anything else is thrown on.
 */
function personsMistake(page: PageRequest, error: unknown): { message: string; status: number } {
  if (error instanceof TooManyRequestsError) {
    page.reply.header("retry-after", String(error.retryAfterSeconds));
    return { message: errorText(page.chrome.lang, error.code, error.message), status: 429 };
  }
  if (error instanceof ValidationError)
    return { message: errorText(page.chrome.lang, error.code, error.message), status: 400 };
  throw error;
}

/**
 * The invitation's link, shown in the answer to the POST that made it (its message is on its way
 * too): a manager whose invitee's mail goes astray passes it on by hand. Only its hash is stored,
 * so no later page can show it again.
 */
function showLink(web: WebContext, page: PageRequest, issued: IssuedInvitation) {
  const members = `/g/${formatPair(issued.group.id)}/members`;
  return page.render("invitation-link", {
    title: `${page.chrome.t("invite.title")} · ${issued.group.name}`,
    group: issued.group,
    area: "members",
    issued,
    link: `${web.baseUrl()}/join/${formatPair(issued.memberId)}/${issued.secret}`,
    backHref: page.chrome.u(withQuery(members, { status: "INVITE" })),
  });
}
