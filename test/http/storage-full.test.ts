// A full disk becomes one named error whichever engine met it, answered 507 STORAGE_FULL by the
// one error table. The SQLite and file-system paths are tested end to end on a filled tmpfs
// (test/reliability/disk-full.test.ts); a full PostgreSQL disk cannot be made in a test, so its
// SQLSTATE (53100 disk_full, as pg reports it in `code`) is checked here, through the store's
// translation and the HTTP table.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StorageFullError } from "../../src/domain/errors.js";
import { toErrorReply } from "../../src/http/errors.js";
import { asStorageFull, storageFullReason } from "../../src/store/storage-full.js";

/** What pg throws for a server error: an Error with the SQLSTATE in `code`. */
function pgError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code, severity: "ERROR" });
}

describe("a full disk as a named error", () => {
  it("maps PostgreSQL's 53100, SQLite's SQLITE_FULL, ENOSPC and EDQUOT to StorageFullError, keeping the cause", () => {
    for (const [error, reason] of [
      [pgError("53100", 'could not extend file "base/16384/2619": No space left on device'), "53100"],
      [Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" }), "SQLITE_FULL"],
      [
        Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC", syscall: "write" }),
        "ENOSPC",
      ],
      [Object.assign(new Error("EDQUOT: disk quota exceeded"), { code: "EDQUOT", syscall: "write" }), "EDQUOT"],
    ] as const) {
      const full = asStorageFull(error);
      assert.ok(full instanceof StorageFullError, reason);
      assert.equal(full.reason, reason);
      assert.equal(full.cause, error, "the engine's own error is kept");
      assert.equal(storageFullReason(error), reason);
      assert.deepEqual(toErrorReply(error), { status: 507, code: "STORAGE_FULL", message: full.message });
    }
  });

  it("leaves every other error alone: other SQLSTATEs of class 53, and other SQLite codes", () => {
    for (const error of [
      pgError("53200", "out of memory"),
      pgError("53300", "too many connections"),
      pgError("23505", "duplicate key"),
      Object.assign(new Error("cannot rollback - no transaction is active"), { code: "SQLITE_ERROR" }),
      Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
      new Error("plain"),
    ]) {
      assert.equal(asStorageFull(error), error);
      assert.equal(toErrorReply(error).status, 500, error.message);
    }
  });
});
