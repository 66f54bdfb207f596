import { NotFoundError } from "../../domain/errors.js";
import type { Folder, FolderArea } from "../../domain/folder.js";
import type { Tx } from "../../store/store.js";

const AREA_WORD: Readonly<Record<FolderArea, string>> = { BOARD: "board", TASK: "task", CABINET: "cabinet" };

/**
 * Loads a folder of one area of a group.
 * @throws NotFoundError FOLDER_NOT_FOUND (also when it belongs to another group or area)
 */
export async function requireFolderOf(tx: Tx, groupId: number, folderId: number, area: FolderArea): Promise<Folder> {
  const folder = await tx.folders.findById(folderId);
  if (!folder || folder.groupId !== groupId || folder.area !== area) {
    throw new NotFoundError("FOLDER_NOT_FOUND", `The ${AREA_WORD[area]} folder does not exist in this group.`);
  }
  return folder;
}
