// `kairan folder`: the operator's thin adapter over folder-write.ts, with no acting member.
import type { Folder, FolderArea } from "../../domain/folder.js";
import { requireNotArchived } from "../../domain/group.js";
import { requireGroup } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { type FolderChange, allFolders, applyFolderChange, checkedChange } from "./folder-write.js";

/**
 * Changes an area's folders as the operator.
 * @throws ValidationError FOLDER_NAME_*, FOLDER_LIMIT_REACHED, FOLDER_POSITION_INVALID; NotFoundError GROUP_NOT_FOUND,
 * FOLDER_NOT_FOUND; ForbiddenError GROUP_ARCHIVED
 */
export async function changeFolderAsOperator(
  ctx: ServiceContext,
  input: { groupId: number; area: FolderArea; change: FolderChange },
): Promise<Folder> {
  const change = checkedChange(input.change);
  return ctx.store.transaction(async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    requireNotArchived(group);
    return applyFolderChange(tx, group, input.area, change, ctx.clock.now());
  });
}

/** An area's folders in order. @throws NotFoundError GROUP_NOT_FOUND */
export async function listFoldersAsOperator(
  ctx: ServiceContext,
  input: { groupId: number; area: FolderArea },
): Promise<Folder[]> {
  return ctx.store.read(async (tx) => {
    await requireGroup(tx, input.groupId);
    return allFolders(tx, input.groupId, input.area);
  });
}
