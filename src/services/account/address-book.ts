import type { Actor } from "../../domain/access.js";
import type { PageWindow } from "../../store/page-window.js";
import type { AddressBookPerson } from "../../store/queries/address-book.js";
import type { ServiceContext } from "../context.js";

/** What the address book is asked for: part of a name or reading, and the page. */
export interface AddressBookQuery {
  readonly name: string | undefined;
  readonly page: PageWindow;
}

/** The people who share a group with the caller, the caller included, by reading then name. */
export async function listAddressBook(
  ctx: ServiceContext,
  actor: Actor,
  input: AddressBookQuery,
): Promise<readonly AddressBookPerson[]> {
  return ctx.store.read((tx) => tx.addressBook.list(actor.user.id, input.name, input.page));
}
