import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ForbiddenError, ValidationError } from "../../src/domain/errors.js";
import {
  checkFolderName,
  mayManageFolders,
  movedOrder,
  requireFolderManager,
  requireFolderRoom,
} from "../../src/domain/folder.js";
import { LIMITS } from "../../src/domain/limits.js";

const code = (code: string) => (error: unknown) => error instanceof ValidationError && error.code === code;

describe("folder rules", () => {
  it("takes a name of 1 to the limit's characters, trimmed, and refuses one past it, empty, or with controls", () => {
    const longest = "名".repeat(LIMITS.folderNameMaxChars);
    assert.equal(checkFolderName(`  ${longest} `), longest);
    assert.equal(checkFolderName("a"), "a");
    assert.throws(() => checkFolderName(`${longest}x`), code("FOLDER_NAME_TOO_LONG"));
    assert.throws(() => checkFolderName(" \t "), code("FOLDER_NAME_REQUIRED"));
    assert.throws(() => checkFolderName("a\u202Eb"), code("FOLDER_NAME_INVALID"));
    assert.throws(() => checkFolderName("a\u0000b"), code("FOLDER_NAME_INVALID"));
  });

  it("lets an area grow to the limit and no further", () => {
    requireFolderRoom(LIMITS.foldersPerAreaMax - 1);
    assert.throws(() => requireFolderRoom(LIMITS.foldersPerAreaMax), code("FOLDER_LIMIT_REACHED"));
  });

  it("lets managers manage folders, and members only when the group allows it", () => {
    const member = { manager: false };
    const manager = { manager: true };
    const open = { archivedAt: null };
    assert.equal(mayManageFolders({ ...open, membersManageFolders: false }, manager), true);
    assert.equal(mayManageFolders({ ...open, membersManageFolders: false }, member), false);
    assert.equal(mayManageFolders({ ...open, membersManageFolders: true }, member), true);
    assert.equal(mayManageFolders({ archivedAt: 1, membersManageFolders: true }, manager), false, "archived");
    assert.throws(
      () => requireFolderManager({ membersManageFolders: false }, member),
      (error: unknown) => error instanceof ForbiddenError && error.code === "FOLDER_MANAGE_FORBIDDEN",
    );
  });

  it("moves a folder to a place in the list, past the end to the end", () => {
    assert.deepEqual(movedOrder([1, 2, 3], 3, 0), [3, 1, 2]);
    assert.deepEqual(movedOrder([1, 2, 3], 1, 1), [2, 1, 3]);
    assert.deepEqual(movedOrder([1, 2, 3], 1, 99), [2, 3, 1]);
    assert.deepEqual(movedOrder([1, 2, 3], 2, 1), [1, 2, 3]);
    assert.throws(() => movedOrder([1, 2], 1, -1), code("FOLDER_POSITION_INVALID"));
    assert.throws(() => movedOrder([1, 2], 1, 0.5), code("FOLDER_POSITION_INVALID"));
  });
});
