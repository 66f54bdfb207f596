// My groups (`/`, the alternate link of the groups feed) and a group's home (`/g/1:n`).
import type { FastifyInstance } from "fastify";
import { formatPair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { listMyInvitations } from "../../services/member/invitation.js";
import { listMyGroupsWithCounts } from "../../services/group/my-groups.js";
import { type WebContext, pathPair, registerPage } from "../page.js";

/** How many groups the page lists (people are in a handful; the feed pages through more). */
const GROUPS_SHOWN = LIMITS.pageSizeMax;

/** `/` and `/g/:group`. */
export function registerGroupPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/", {
    async GET(page) {
      const groups = await listMyGroupsWithCounts(web, page.actor, { offset: 0, limit: GROUPS_SHOWN });
      const invitations = await listMyInvitations(web, page.actor);
      return page.render("groups", {
        invitations,
        left: page.query.left === "1",
        newGroupHref: page.chrome.u("/groups/new"),
        title: page.chrome.t("groups.title"),
        section: "groups",
        feed: { title: page.chrome.t("groups.title"), href: `${web.baseUrl()}/api/group/V2` },
        groups,
        notificationsHref: page.chrome.u("/notifications"),
      });
    },
  });
  // A group opens on its board.
  registerPage(app, web, "/g/:group", {
    async GET(page) {
      return page.redirect(`/g/${formatPair(pathPair(page, "group"))}/board`);
    },
  });
}
