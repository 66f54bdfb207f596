import { ForbiddenError, ValidationError } from "./errors.js";
import type { Group, Membership } from "./group.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars, checkNameCharacters } from "./text.js";

/** A folder of a group's board, task list or shared files. */
export interface Folder {
  readonly id: number;
  readonly groupId: number;
  readonly area: FolderArea;
  readonly name: string;
  /** Its place in the area's list (lowest first, then id). */
  readonly position: number;
}

/** The three areas of a group that have folders. */
export type FolderArea = "BOARD" | "TASK" | "CABINET";

/** The areas as the command line and the API's folder endpoints name them. */
export const FOLDER_AREA_WORDS: Readonly<Record<string, FolderArea>> = {
  board: "BOARD",
  task: "TASK",
  cabinet: "CABINET",
};

/** Which items of a list to show: everything but the trash, no folder, the trash, or one folder. */
export type FolderFilter =
  | { readonly kind: "all" }
  | { readonly kind: "unclassified" }
  | { readonly kind: "trash" }
  | { readonly kind: "folder"; readonly folderId: number };

/**
 * A folder's name, trimmed: shown as `valueString` of an item's folder and as the title of a
 * folder entry, so it takes a name's rules (no control characters).
 * @throws ValidationError FOLDER_NAME_REQUIRED, FOLDER_NAME_TOO_LONG, FOLDER_NAME_INVALID
 */
export function checkFolderName(text: string): string {
  const name = text.trim();
  if (name === "") throw new ValidationError("FOLDER_NAME_REQUIRED", "The folder's name is missing or empty.");
  checkMaxChars(name, LIMITS.folderNameMaxChars, "FOLDER_NAME_TOO_LONG", "The folder's name");
  checkNameCharacters(name, "FOLDER_NAME_INVALID", "The folder's name");
  return name;
}

/**
 * Asserts an area has room for one more folder (all of them fit in a list's filter).
 * @throws ValidationError FOLDER_LIMIT_REACHED
 */
export function requireFolderRoom(count: number): void {
  if (count >= LIMITS.foldersPerAreaMax)
    throw new ValidationError("FOLDER_LIMIT_REACHED", `An area holds at most ${LIMITS.foldersPerAreaMax} folders.`);
}

/** Managers manage a group's folders, its members too when the group allows it; nobody while it is archived. */
export function mayManageFolders(
  group: Pick<Group, "membersManageFolders" | "archivedAt">,
  membership: Pick<Membership, "manager">,
): boolean {
  return group.archivedAt === null && (membership.manager || group.membersManageFolders);
}

/**
 * Asserts the member may make, rename, order and remove the group's folders.
 * @throws ForbiddenError FOLDER_MANAGE_FORBIDDEN
 */
export function requireFolderManager(
  group: Pick<Group, "membersManageFolders">,
  membership: Pick<Membership, "manager">,
): void {
  if (!membership.manager && !group.membersManageFolders)
    throw new ForbiddenError("FOLDER_MANAGE_FORBIDDEN", "Only the group's managers may change its folders.");
}

/**
 * The area's folder ids with one moved to `position` (0 first; past the end: last).
 * @throws ValidationError FOLDER_POSITION_INVALID (a negative or fractional position)
 */
export function movedOrder(ids: readonly number[], folderId: number, position: number): number[] {
  if (!Number.isSafeInteger(position) || position < 0)
    throw new ValidationError("FOLDER_POSITION_INVALID", "The position must be a whole number from 0.");
  const rest = ids.filter((id) => id !== folderId);
  rest.splice(Math.min(position, rest.length), 0, folderId);
  return rest;
}
