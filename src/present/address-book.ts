import { element, utcTimestamp } from "../atom/build.js";
import { formatPair } from "../domain/item-id.js";
import type { AddressBookPerson } from "../store/queries/address-book.js";
import { type Viewer, feedDocument, newestOf, titleElement, webLinkElements } from "./feed.js";

/** A person's row in the web's address book: the stable address of their entry. */
function personLinks(baseUrl: string, userId: number) {
  const anchor = `#user-${userId}`;
  return { alternate: `${baseUrl}/address-book${anchor}`, mobile: `${baseUrl}/m/address-book${anchor}` };
}

/**
 * An address book entry (docs/api.md "Address book"): id (the user id), title (the name), the two
 * links, `author` with the e-mail address, `updated`, `cbl:who` (`valueString` then `id`), and the
 * reading when known.
 */
export function addressEntry(baseUrl: string, person: AddressBookPerson): string {
  const id = formatPair(person.id);
  return (
    "<entry>" +
    element("id", {}, id) +
    titleElement(person.name) +
    webLinkElements(personLinks(baseUrl, person.id)) +
    `<author>${element("name", {}, person.name)}${element("email", {}, person.email)}${element("uri", {}, id)}</author>` +
    element("updated", {}, utcTimestamp(person.createdAt)) +
    element("cbl:who", { valueString: person.name, id }) +
    (person.familyKana === "" ? "" : element("cblPrfl:familyKana", {}, person.familyKana)) +
    (person.givenKana === "" ? "" : element("cblPrfl:givenKana", {}, person.givenKana)) +
    "</entry>"
  );
}

/** `GET /api/mpAddress/V2`: the caller's address book, by reading then name. */
export function addressBookFeed(
  baseUrl: string,
  viewer: Viewer,
  people: readonly AddressBookPerson[],
  now: number,
): string {
  return feedDocument(
    {
      title: "Address book",
      id: `${baseUrl}/api/mpAddress/V2`,
      alternate: `${baseUrl}/address-book`,
      viewer,
      updated: newestOf(
        people.map((person) => ({ updatedAt: person.createdAt })),
        now,
      ),
    },
    people.map((person) => addressEntry(baseUrl, person)),
  );
}
