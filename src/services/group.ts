import type { Actor } from "../domain/access.js";
import type { Folder, FolderArea } from "../domain/folder.js";
import type { Group } from "../domain/group.js";
import type { Store } from "../store/store.js";
import { requireGroupMember } from "./group-access.js";
import type { PageWindow } from "../store/page-window.js";

/** The groups the caller has joined. */
export async function listMyGroups(store: Store, actor: Actor, page: PageWindow): Promise<Group[]> {
  return store.read((tx) => tx.groups.listJoined(actor.user.id, page));
}

/** The folders of one area of a group. @throws NotFoundError, ForbiddenError */
export async function listFolders(
  store: Store,
  actor: Actor,
  input: { groupId: number; area: FolderArea; page: PageWindow },
): Promise<{ group: Group; folders: Folder[] }> {
  return store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    return { group, folders: await tx.folders.list(group.id, input.area, input.page) };
  });
}
