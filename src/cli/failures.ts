import pg from "pg";
import { BlobStoreError } from "../blobs/blob-store.js";
import { ConfigError } from "../config/config.js";
import { ArchiveError } from "../domain/archive.js";
import { ImportFileError } from "../domain/cybozulive/errors.js";
import { DomainError } from "../domain/errors.js";
import { SeedError } from "../seed/validate.js";
import { CopyError } from "../store/copy.js";
import { StoreUnavailableError, describePostgresFailure } from "../store/unavailable.js";
import { CommandError } from "./options.js";

/**
 * The one table of the command line's failures: an error a command may meet on bad input or a
 * bad environment, as one line naming the cause (and the fix where there is one); undefined for
 * anything else, which is a bug.
 */
export function explainFailure(error: unknown): string | undefined {
  if (error instanceof ConfigError) return `invalid configuration: ${error.problems.join("; ")}`;
  if (error instanceof SeedError) return error.problems.join("; ");
  if (
    error instanceof CommandError ||
    error instanceof StoreUnavailableError ||
    error instanceof CopyError ||
    // An export file that breaks the format: its file, line and column, and what is wrong there.
    error instanceof ImportFileError ||
    // A portable archive that is damaged or names what it lacks: the archive, the member, the cause.
    error instanceof ArchiveError ||
    error instanceof BlobStoreError
  ) {
    return error.message;
  }
  // A refused operation (unknown group, last manager, bad title...): the rule's own message.
  if (error instanceof DomainError) return `${error.message} (${error.code})`;
  // Met after the store's check at open (a migration without the right to create tables).
  if (error instanceof pg.DatabaseError) return describePostgresFailure(error, "the --database server");
  return fileSystemFailure(error);
}

/** A file the command was given or writes: its path and what stands in the way. */
function fileSystemFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  if (typeof path !== "string") return undefined;
  const reason = FILE_SYSTEM_REASONS[code ?? ""];
  return reason === undefined ? undefined : `${path}: ${reason}`;
}

const FILE_SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOSPC: "no space left on the device",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "a part of the path is a file, not a directory",
  EEXIST: "a file is in the way",
};

/** Makes sure what is printed is one line, whatever a message holds. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, "; ");
}
