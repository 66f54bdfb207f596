/** A folder of a group's board, task list or shared files. */
export interface Folder {
  readonly id: number;
  readonly groupId: number;
  readonly area: FolderArea;
  readonly name: string;
}

/** The three areas of a group that have folders. */
export type FolderArea = "BOARD" | "TASK" | "CABINET";

/** Which items of a list to show: everything but the trash, no folder, the trash, or one folder. */
export type FolderFilter =
  | { readonly kind: "all" }
  | { readonly kind: "unclassified" }
  | { readonly kind: "trash" }
  | { readonly kind: "folder"; readonly folderId: number };
