// The shared-folder files repository: its interface (part of Tx, store.ts); files.ts implements it.
import type { FolderFilter } from "../../domain/folder.js";
import type { CabinetFile, FileVersion } from "../../domain/file.js";
import type { PageWindow } from "../page-window.js";

/** Fields of a new file version; the store numbers it and fills in the author's name. */
export type NewFileVersion = Omit<FileVersion, "fileId" | "number" | "authorName" | "createdAt"> & {
  readonly at: number;
  /** The start of a plain-text file's text, for the search index (absent for other files). */
  readonly searchText?: string;
};

/** Shared-folder files and their versions. */
export interface FileRepo {
  /** Inserts the file and its first version, and writes its searchable text (title, memo, name, text). */
  insert(
    file: { groupId: number; title: string; memo: string; authorId: number; folderId: number | null; trashed: boolean },
    version: NewFileVersion,
  ): Promise<CabinetFile>;
  /** Adds the next version and makes it current; the searchable text follows the new version. */
  addVersion(fileId: number, version: NewFileVersion): Promise<CabinetFile>;
  findById(id: number): Promise<CabinetFile | undefined>;
  findVersion(fileId: number, number: number): Promise<FileVersion | undefined>;
  /**
   * The folder's file (not in the trash) whose current version has this file name, the most
   * recently changed when several do (`folderId` null: the unclassified files).
   */
  findLiveByName(groupId: number, folderId: number | null, fileName: string): Promise<CabinetFile | undefined>;
  /** A page of a group's files, newest first (updated, then id). */
  list(groupId: number, filter: FolderFilter, page: PageWindow): Promise<CabinetFile[]>;
  /** The newest `perFile` versions of each file, newest first. */
  listHistories(files: readonly CabinetFile[], perFile: number): Promise<FileVersion[]>;
  /** The group's comment attachments (the ATTACH folder). */
  listAttachmentsOfGroup(groupId: number, page: PageWindow): Promise<CabinetFile[]>;
  update(id: number, change: { folderId?: number | null; trashed?: boolean; at: number }): Promise<void>;
  /** Deletes a file and every version of it; returns the blob keys (bytes and thumbnails) they held. */
  remove(id: number): Promise<string[]>;
}
