import { basename } from "node:path/posix";
import { TooLargeError, ValidationError } from "./errors.js";
import { LIMITS } from "./limits.js";
import { removeControlCharacters } from "./text.js";

/** A file attached to a comment, as stored (the bytes live in the blob store under `blobKey`). */
export interface Attachment {
  readonly id: number;
  readonly commentId: number;
  /** 1-based, in the order the files were uploaded; the last segment of the attachment id. */
  readonly position: number;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly blobKey: string;
}

/** What an upload tells us about one file before it is stored. */
export interface AttachmentDraft {
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
}

/**
 * Checks the files of one comment against the specification's limits (the upload reader enforces
 * the same numbers while streaming; this is the rule itself, for every path that adds files).
 * @throws ValidationError TOO_MANY_FILES; TooLargeError FILE_TOO_LARGE, ATTACHMENTS_TOO_LARGE
 */
export function checkAttachments(files: readonly AttachmentDraft[]): void {
  if (files.length > LIMITS.filesPerComment) throw tooManyFiles();
  let total = 0;
  for (const file of files) {
    if (file.size > LIMITS.fileMaxBytes) throw fileTooLarge(file.fileName);
    total += file.size;
  }
  if (total > LIMITS.multipartMaxBytes) throw attachmentsTooLarge();
}

/** More than 10 files on one comment. */
export function tooManyFiles(): ValidationError {
  return new ValidationError(
    "TOO_MANY_FILES",
    `A comment carries at most ${LIMITS.filesPerComment} files (file0 to file${LIMITS.filesPerComment - 1}).`,
  );
}

/** One file over 25 MB. */
export function fileTooLarge(fileName: string): TooLargeError {
  const shown = fileName.length > 40 ? `${fileName.slice(0, 40)}…` : fileName;
  return new TooLargeError(
    "FILE_TOO_LARGE",
    `The file "${shown}" is larger than ${LIMITS.fileMaxBytes} bytes (25 MB).`,
  );
}

/** The files of one request over 50 MB in all. */
export function attachmentsTooLarge(): TooLargeError {
  return new TooLargeError(
    "ATTACHMENTS_TOO_LARGE",
    `The attached files exceed ${LIMITS.multipartMaxBytes} bytes (50 MB) in all.`,
  );
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;
const MAX_NAME_CHARS = 255;

/**
 * What an upload (a form's file part, a mail's attachment) says about the `index`-th file, cleaned:
 * a bare file name (`file<index>` when none is left) and a well-formed MIME type.
 */
export function attachmentDraftOf(fileName: string, mimeType: string, index: number): Omit<AttachmentDraft, "size"> {
  // Browsers of old sent whole paths; control characters would break headers and feeds, and a
  // bidi control would show another name and extension than the one saved.
  const bare = removeControlCharacters(basename(fileName.replace(/\\/g, "/"))).trim();
  const name = [...bare].slice(0, MAX_NAME_CHARS).join("") || `file${index}`;
  const type = mimeType.trim().toLowerCase();
  return { fileName: name, contentType: MIME.test(type) ? type : "application/octet-stream" };
}
