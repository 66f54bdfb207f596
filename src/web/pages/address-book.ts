// The address book (`/address-book`): the people who share a group with the signed-in person,
// found by part of a name or reading, each with a button that opens a direct conversation.
import type { FastifyInstance } from "fastify";
import { queryValue } from "../../http-kit/query.js";
import { listAddressBook } from "../../services/account/address-book.js";
import { type WebContext, registerPage } from "../page.js";
import { paged, readPageNumber, withQuery } from "../paging.js";

/** `/address-book`. */
export function registerAddressBookPage(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/address-book", {
    async GET(page) {
      const name = queryValue(page.query, "name")?.trim() ?? "";
      const request = readPageNumber(page.query);
      const people = await listAddressBook(web, page.actor, { name: name || undefined, page: request.fetch });
      const rows = people.map((person) => ({
        anchor: `user-${person.id}`,
        userId: person.id,
        name: person.name,
        reading: [person.familyKana, person.givenKana].filter(Boolean).join(" "),
        email: person.email,
        isYou: person.id === page.actor.user.id,
      }));
      return page.render("address-book", {
        title: page.chrome.t("addressBook.title"),
        section: "addressBook",
        feed: { title: page.chrome.t("addressBook.title"), href: `${web.baseUrl()}/api/mpAddress/V2` },
        name,
        people: paged(rows, request, (n) =>
          page.chrome.u(withQuery("/address-book", { name: name || undefined, page: n })),
        ),
      });
    },
  });
}
