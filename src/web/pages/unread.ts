// What the reader has not seen: the header's counts as JSON (`/unread`, for app.js, which asks
// again whenever the live stream says something arrived or was read) and "mark all read" of a
// group (`/g/1:n/read-all`), which the board, the task list and the shared files offer.
import type { FastifyInstance } from "fastify";
import { formatPair } from "../../domain/item-id.js";
import { markGroupRead } from "../../services/unread/visits.js";
import { readUnreadCounts } from "../../services/unread/unread.js";
import { type WebContext, pathPair, registerPage } from "../page.js";

/** The lists a "mark all read" goes back to (`back`); anything else goes to the board. */
const AREAS = ["board", "tasks", "files"] as const;

/** `/unread` and `/g/:group/read-all`. */
export function registerUnreadPages(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/unread",
    {
      async GET(page) {
        // No page, so the page machinery did not count them for a header.
        const counts = await readUnreadCounts(web, page.actor);
        return page.reply
          .header("cache-control", "private, no-store")
          .type("application/json; charset=utf-8")
          .send(JSON.stringify({ notifications: counts.notifications, chat: counts.chat }));
      },
    },
    { noPage: true },
  );
  registerPage(app, web, "/g/:group/read-all", {
    async POST(page) {
      const groupId = pathPair(page, "group");
      await markGroupRead(web, page.actor, groupId);
      const back = AREAS.find((area) => area === page.form.get("back")) ?? "board";
      return page.redirect(`/g/${formatPair(groupId)}/${back}`);
    },
  });
}
