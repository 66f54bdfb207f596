// A group's folders of its board, tasks and files: the one place that makes, renames, orders and
// removes them, for the web's folder pages (members and managers) and `kairan folder` (folder-admin.ts).
// Every write moves the group's change version (folders are tracked rows), so the API's folder
// lists, the `*-folder` filters and the cached feeds that name a folder see it at once.
import type { Actor } from "../../domain/access.js";
import {
  type Folder,
  type FolderArea,
  checkFolderName,
  mayManageFolders,
  movedOrder,
  requireFolderManager,
  requireFolderRoom,
} from "../../domain/folder.js";
import type { Group } from "../../domain/group.js";
import { LIMITS } from "../../domain/limits.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";

/** What is done to an area's folders. */
export type FolderChange =
  | { readonly kind: "add"; readonly name: string }
  | { readonly kind: "rename"; readonly folderId: number; readonly name: string }
  | { readonly kind: "move"; readonly folderId: number; readonly position: number }
  /** One place up (-1) or down (1): the web page's buttons. */
  | { readonly kind: "shift"; readonly folderId: number; readonly by: -1 | 1 }
  | { readonly kind: "remove"; readonly folderId: number };

/** Which folder and area a change is to. */
export interface FolderChangeInput {
  readonly groupId: number;
  readonly area: FolderArea;
  readonly change: FolderChange;
}

/** Every folder of an area, in order (an area holds at most `foldersPerAreaMax`). */
export function allFolders(tx: Tx, groupId: number, area: FolderArea): Promise<Folder[]> {
  return tx.folders.list(groupId, area, { offset: 0, limit: LIMITS.foldersPerAreaMax });
}

/** The change's name checked before any read. @throws ValidationError FOLDER_NAME_* */
export function checkedChange(change: FolderChange): FolderChange {
  return change.kind === "add" || change.kind === "rename" ? { ...change, name: checkFolderName(change.name) } : change;
}

/**
 * Applies a change inside the caller's transaction, the group already authorized: the one write
 * of folders. A removed folder's items become unclassified (their times kept).
 * @throws ValidationError FOLDER_LIMIT_REACHED, FOLDER_POSITION_INVALID; NotFoundError FOLDER_NOT_FOUND
 */
export async function applyFolderChange(
  tx: Tx,
  group: Group,
  area: FolderArea,
  change: FolderChange,
  at: number,
): Promise<Folder> {
  if (change.kind === "add") {
    requireFolderRoom(await tx.folders.count(group.id, area));
    return tx.folders.insert({ groupId: group.id, area, name: change.name, createdAt: at });
  }
  const folder = await requireFolderOf(tx, group.id, change.folderId, area);
  if (change.kind === "rename") {
    await tx.folders.rename(folder.id, change.name);
    return { ...folder, name: change.name };
  }
  if (change.kind === "remove") {
    await tx.folders.remove(folder);
    return folder;
  }
  const ids = (await allFolders(tx, group.id, area)).map((f) => f.id);
  const position = change.kind === "move" ? change.position : Math.max(0, ids.indexOf(folder.id) + change.by);
  const order = movedOrder(ids, folder.id, position);
  await tx.folders.reorder(order);
  return { ...folder, position: order.indexOf(folder.id) };
}

/**
 * A member changes an area's folders: a manager, or any member when the group allows it.
 * @throws ValidationError FOLDER_NAME_*, FOLDER_LIMIT_REACHED, FOLDER_POSITION_INVALID; NotFoundError GROUP_NOT_FOUND,
 * FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, GROUP_ARCHIVED, FOLDER_MANAGE_FORBIDDEN
 */
export async function changeFolder(ctx: ServiceContext, actor: Actor, input: FolderChangeInput): Promise<Folder> {
  const change = checkedChange(input.change);
  return ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    requireFolderManager(group, membership);
    return applyFolderChange(tx, group, input.area, change, ctx.clock.now());
  });
}

/** The folders of an area as its management page shows them, and whether the caller may change them. */
export interface FolderListView {
  readonly group: Group;
  readonly folders: readonly Folder[];
  readonly mayManage: boolean;
}

/** An area's folders for its management page. @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readFolderList(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; area: FolderArea },
): Promise<FolderListView> {
  return ctx.store.read(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    const mayManage = mayManageFolders(group, membership);
    return { group, folders: await allFolders(tx, group.id, input.area), mayManage };
  });
}
