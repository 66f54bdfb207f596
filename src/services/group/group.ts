import type { Actor } from "../../domain/access.js";
import { type Folder, type FolderArea, mayManageFolders } from "../../domain/folder.js";
import type { Group } from "../../domain/group.js";
import type { PageWindow } from "../../store/page-window.js";
import { requireGroupMember } from "./group-access.js";
import type { ServiceContext } from "../context.js";

/** The groups the caller has joined. */
export async function listMyGroups(ctx: ServiceContext, actor: Actor, page: PageWindow): Promise<Group[]> {
  return ctx.store.read((tx) => tx.groups.listJoined(actor.user.id, page));
}

/** The folders of one area of a group, and whether the caller may change them. @throws NotFoundError, ForbiddenError */
export async function listFolders(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; area: FolderArea; page: PageWindow },
): Promise<{ group: Group; folders: Folder[]; mayManage: boolean }> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const folders = await tx.folders.list(group.id, input.area, input.page);
    return { group, folders, mayManage: mayManageFolders(group, membership) };
  });
}
