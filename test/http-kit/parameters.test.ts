// The shared parameter readers: what they accept, and their refusals word for word (the API and
// the web pages show them).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  readContentId,
  readFolderParameter,
  readGroupId,
  readItemId,
  requireKind,
} from "../../src/http-kit/parameters.js";
import { assertRefusal } from "../support/refusal.js";

describe("shared parameter readers", () => {
  it("read a folder: absent, the area's words in any case, or a folder id", () => {
    assert.deepEqual(readFolderParameter(undefined, "task-folder"), { kind: "all" });
    assert.deepEqual(readFolderParameter("  ", "task-folder"), { kind: "all" });
    assert.deepEqual(readFolderParameter(" unclassified", "task-folder"), { kind: "unclassified" });
    assert.deepEqual(readFolderParameter("Trash", "task-folder"), { kind: "trash" });
    assert.deepEqual(readFolderParameter("attach", "cabinet-folder", ["ATTACH"]), { kind: "attach" });
    assert.deepEqual(readFolderParameter("1:4", "cabinet-folder", ["ATTACH"]), { kind: "folder", folderId: 4 });
  });

  it("refuse a folder naming the parameter and the words it takes", () => {
    assertRefusal(
      () => readFolderParameter("attach", "task-folder"),
      "INVALID_FOLDER",
      'task-folder must be a folder id, UNCLASSIFIED or TRASH (got "attach").',
    );
    assertRefusal(
      () => readFolderParameter("1:", "cabinet-folder", ["ATTACH"]),
      "INVALID_FOLDER",
      'cabinet-folder must be a folder id, UNCLASSIFIED, ATTACH or TRASH (got "1:").',
    );
  });

  it("read item ids: any kind, or one kind where another names nothing", () => {
    assert.deepEqual(readItemId("GROUP,1:2,TASK,1:3", "id"), { kind: "TASK", groupId: 2, id: 3 });
    assertRefusal(
      () => readItemId("x", "entry/id"),
      "INVALID_ID",
      'entry/id "x" is not an item id such as GROUP,1:1,BOARD,1:7.',
    );
    assertRefusal(() => readItemId("x"), "INVALID_ID", '"x" is not an item id such as GROUP,1:1,BOARD,1:7.');
    assert.deepEqual(requireKind({ kind: "CABINET", groupId: 2, id: 3 }, "CABINET"), {
      kind: "CABINET",
      groupId: 2,
      id: 3,
    });
    assertRefusal(
      () => requireKind({ kind: "GROUP", groupId: 2 }, "TASK"),
      "TASK_NOT_FOUND",
      "The task does not exist.",
    );
    assertRefusal(() => readContentId("GROUP,1:2", "entry", "CABINET"), "FILE_NOT_FOUND", "The file does not exist.");
    assertRefusal(
      () => readContentId("1:2", "entry", "BOARD"),
      "INVALID_ID",
      'entry must be a topic id such as GROUP,1:1,BOARD,1:7 (got "1:2").',
    );
  });

  it("read a group id wherever it was found", () => {
    assert.equal(readGroupId("GROUP,1:12", "group"), 12);
    assert.equal(readGroupId("1:12", "cbl:group id"), 12);
    assertRefusal(
      () => readGroupId("12", "cbl:group id"),
      "INVALID_GROUP",
      'cbl:group id must be a group id such as 1:12 (got "12").',
    );
  });
});
