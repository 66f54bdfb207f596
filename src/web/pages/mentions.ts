// The members a form suggests as one types `@` (`/g/1:n/mentions?q=`): JSON for app.js, which
// shows them as a listbox under the text field.
import type { FastifyInstance } from "fastify";
import { formatPair } from "../../domain/item-id.js";
import { queryValue } from "../../http-kit/query.js";
import { suggestMentions } from "../../services/notification/mention.js";
import { type WebContext, pathPair, registerPage } from "../page.js";

/** `/g/:group/mentions`: `{ members: [{ name, insert, href }] }`, members of a group the caller has joined. */
export function registerMentionSuggestions(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/g/:group/mentions",
    {
      async GET(page) {
        const groupId = pathPair(page, "group");
        const found = await suggestMentions(web, page.actor, { groupId, prefix: queryValue(page.query, "q") ?? "" });
        const members = found.map((member) => ({
          name: member.name,
          insert: member.insert,
          href: page.chrome.u(`/g/${formatPair(groupId)}/members/${formatPair(member.memberId)}`),
        }));
        return page.reply
          .header("cache-control", "private, no-store")
          .type("application/json; charset=utf-8")
          .send(JSON.stringify({ members }));
      },
    },
    { noPage: true },
  );
}
