// A full disk, whichever engine met it, becomes one named error (StorageFullError, answered 507):
// the store translates its engine's code, the HTTP edge the file system's (a blob write).
import { StorageFullError } from "../domain/errors.js";

/**
 * The codes that mean "no space left": SQLite's SQLITE_FULL (better-sqlite3 puts it in `code`),
 * PostgreSQL's SQLSTATE 53100 disk_full, and the file system's ENOSPC and EDQUOT (a quota).
 */
const FULL_CODES: ReadonlySet<string> = new Set(["SQLITE_FULL", "53100", "ENOSPC", "EDQUOT"]);

/** The code of a full disk this error carries, or undefined for any other error. */
export function storageFullReason(error: unknown): string | undefined {
  if (error instanceof StorageFullError) return error.reason;
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && FULL_CODES.has(code) ? code : undefined;
}

/** `error` as a StorageFullError when it says the disk is full (the original kept as its cause), else `error` itself. */
export function asStorageFull(error: unknown): unknown {
  if (error instanceof StorageFullError) return error;
  const reason = storageFullReason(error);
  return reason === undefined ? error : new StorageFullError(reason, { cause: error });
}
