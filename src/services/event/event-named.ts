// A group's event menus and facilities: the one insert of either, for the manager's page
// (event-page.ts `changeEventList`) and `kairan event menu|facility add` (event-admin.ts).
import type { NamedRef } from "../../domain/event.js";
import type { Tx } from "../../store/store.js";

/** Which list of a group: its event menus, or its facilities. */
export type NamedList = "event_menus" | "facilities";

/** Inserts a menu or facility (its name checked by the caller) inside the caller's transaction. */
export async function insertNamed(
  tx: Tx,
  input: { list: NamedList; groupId: number; name: string },
  at: number,
): Promise<NamedRef> {
  return tx.events.insertNamed(input.list, input.groupId, input.name, at);
}
