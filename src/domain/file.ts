import { ConflictError, ForbiddenError, ValidationError } from "./errors.js";
import type { FolderFilter } from "./folder.js";
import type { Membership } from "./group.js";
import type { ContentRef } from "./item-id.js";
import { LIMITS } from "./limits.js";
import { checkMaxChars, checkNameCharacters, hasControlCharacter } from "./text.js";

/** One stored version of a shared-folder file; versions count up from 1 and are never removed. */
export interface FileVersion {
  readonly fileId: number;
  readonly number: number;
  readonly fileName: string;
  readonly size: number;
  readonly mimeType: string;
  readonly blobKey: string;
  /** Pixel size, only for images (PNG, JPEG, GIF, WebP), read from the bytes at upload time. */
  readonly width: number | null;
  readonly height: number | null;
  readonly thumbnailKey: string | null;
  readonly authorId: number;
  readonly authorName: string;
  readonly comment: string;
  readonly createdAt: number;
}

/** A file of a group's shared folder, with its current (newest) version. */
export interface CabinetFile {
  readonly id: number;
  readonly groupId: number;
  /** As given; may be empty, then clients are shown the file name (see {@link fileTitle}). */
  readonly title: string;
  readonly memo: string;
  readonly authorId: number;
  readonly authorName: string;
  readonly folderId: number | null;
  readonly folderName: string | null;
  readonly trashed: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly current: FileVersion;
  /**
   * Set for a comment attachment listed in the ATTACH folder: where it hangs. Such an entry is
   * identified (and downloaded) by its attachment id, and has one version and no history.
   */
  readonly attachment?: { readonly parent: ContentRef; readonly commentNumber: number; readonly position: number };
}

/** `cabinet-folder`: the folder filters every area has, plus ATTACH (the group's comment attachments). */
export type CabinetFilter = FolderFilter | { readonly kind: "attach" };

/** The title clients see: the file name when none was given (docs/api.md "Shared files"). */
export function fileTitle(file: CabinetFile): string {
  return file.title.trim() === "" ? file.current.fileName : file.title;
}

const FILE_NAME_MAX_CHARS = 255;
// Path separators and control characters would break Content-Disposition and every client's save
// dialog; a bidi control would show another name and extension than the one saved.
const PATH_SEPARATOR = /[/\\]/;

/**
 * Checks a file name as shown and downloaded.
 * @throws ValidationError FILE_NAME_REQUIRED, FILE_NAME_TOO_LONG, FILE_NAME_INVALID
 */
export function checkFileName(name: string): string {
  if (name.trim() === "") throw new ValidationError("FILE_NAME_REQUIRED", "The file name is missing or empty.");
  checkMaxChars(name, FILE_NAME_MAX_CHARS, "FILE_NAME_TOO_LONG", "The file name");
  if (PATH_SEPARATOR.test(name) || hasControlCharacter(name) || name === "." || name === "..") {
    throw new ValidationError(
      "FILE_NAME_INVALID",
      "The file name must not contain slashes, backslashes or control characters (bidi controls included).",
    );
  }
  return name;
}

/**
 * Checks a file's title and memo (same limits as a topic's title and body).
 * @throws ValidationError FILE_TITLE_TOO_LONG, FILE_TITLE_INVALID, FILE_MEMO_TOO_LONG
 */
export function checkFileText(draft: { title: string; memo: string }): { title: string; memo: string } {
  checkMaxChars(draft.title, LIMITS.topicTitleMaxChars, "FILE_TITLE_TOO_LONG", "The file title");
  // The title is shown where the file name would be (fileTitle): it may not lie about it either.
  checkNameCharacters(draft.title, "FILE_TITLE_INVALID", "The file title");
  checkMaxChars(draft.memo, LIMITS.topicBodyMaxChars, "FILE_MEMO_TOO_LONG", "The file memo");
  return draft;
}

/**
 * Checks a version's change note (what the history shows beside it).
 * @throws ValidationError FILE_COMMENT_TOO_LONG
 */
export function checkFileComment(comment: string): string {
  checkMaxChars(comment, LIMITS.fileCommentMaxChars, "FILE_COMMENT_TOO_LONG", "The change note");
  return comment;
}

/**
 * A file in the trash is only restored or deleted: new versions and moves wait for its restore.
 * @throws ConflictError FILE_IN_TRASH
 */
export function requireFileNotTrashed(file: CabinetFile): void {
  if (file.trashed) throw new ConflictError("FILE_IN_TRASH", "The file is in the trash; restore it first.");
}

/**
 * Deleting for good goes through the trash, so that no file disappears by one click.
 * @throws ConflictError FILE_NOT_IN_TRASH
 */
export function requireFileTrashed(file: CabinetFile): void {
  if (!file.trashed) throw new ConflictError("FILE_NOT_IN_TRASH", "Move the file to the trash before deleting it.");
}

/** Whether a member may delete the file for good (the page offers the button only then). */
export function mayDeleteFile(file: CabinetFile, userId: number, membership: Membership): boolean {
  return file.authorId === userId || membership.manager;
}

/**
 * Every member shares the folder (uploads, versions, moves, trash); deleting for good, which
 * takes every version with it, is for the file's author and the group's managers.
 * @throws ForbiddenError FILE_DELETE_FORBIDDEN
 */
export function requireMayDeleteFile(file: CabinetFile, userId: number, membership: Membership): void {
  if (!mayDeleteFile(file, userId, membership)) {
    throw new ForbiddenError(
      "FILE_DELETE_FORBIDDEN",
      "Only the file's author and the group's managers may delete this file.",
    );
  }
}

/** Image types whose size and thumbnail we read, by their first bytes (not by a name a user chose). */
export function sniffImageType(head: Uint8Array): "image/png" | "image/jpeg" | "image/gif" | "image/webp" | undefined {
  const starts = (...bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && head[8] === 0x57 && head[9] === 0x45 && head[10] === 0x42 && head[11] === 0x50)
    return "image/webp";
  return undefined;
}

// Only types that browsers do not run as pages: HTML or SVG served from our origin could script it.
const TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  pdf: "application/pdf",
  json: "application/json",
  zip: "application/zip",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** The Content-Type a file is served with: sniffed image type, else by extension, else octet-stream. */
export function mimeTypeOf(fileName: string, head: Uint8Array): string {
  const image = sniffImageType(head);
  if (image) return image;
  const dot = fileName.lastIndexOf(".");
  const extension = dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
  return TYPES_BY_EXTENSION[extension] ?? "application/octet-stream";
}

/** Whether a file's bytes are text the search index reads (plain text and CSV; docs/api.md "Search"). */
export function isIndexedText(mimeType: string): boolean {
  return /^text\/(plain|csv)\b/.test(mimeType);
}

/** What the search index holds of a shared file: title, memo, current file name, start of its text. */
export function fileSearchText(file: { title: string; memo: string }, fileName: string, text: string): string {
  return [file.title, file.memo, fileName, text].join("\n");
}
