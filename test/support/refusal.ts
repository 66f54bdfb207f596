import assert from "node:assert/strict";
import { DomainError } from "../../src/domain/errors.js";

/** Asserts `read` refuses with exactly this code and message (a domain error, as the edge maps it). */
export function assertRefusal(read: () => unknown, code: string, message: string): void {
  assert.throws(read, (error: unknown) => {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    return true;
  });
}
