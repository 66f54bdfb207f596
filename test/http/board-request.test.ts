// The board's request reader, word for word: its refusals are what clients show people, and it
// reads through the shared parameter readers of the HTTP kit.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseXml } from "../../src/atom/parse.js";
import { readBoardQuery, readBoardWrite } from "../../src/http/endpoints/board/board.request.js";
import { CLIENT_NS } from "../support/http.js";
import { assertRefusal } from "../support/refusal.js";

const feed = (inner: string) => parseXml(`<feed ${CLIENT_NS}>${inner}</feed>`);
const long = "x".repeat(50);

describe("board request reader", () => {
  it("reads a list query: group, folder, paging and embedded comments", () => {
    assert.deepEqual(readBoardQuery({ group: "GROUP,1:7", "board-folder": " trash ", "embed-comment": "TRUE" }), {
      kind: "list",
      groupId: 7,
      filter: { kind: "trash" },
      page: { offset: 0, limit: 20 },
      embedComments: true,
      changesSince: undefined,
    });
    const folder = readBoardQuery({ group: "1:7", "board-folder": "1:3", "start-index": "40", "max-results": "500" });
    assert.deepEqual(folder, {
      kind: "list",
      groupId: 7,
      filter: { kind: "folder", folderId: 3 },
      page: { offset: 40, limit: 100 },
      embedComments: false,
      changesSince: undefined,
    });
    assert.deepEqual(readBoardQuery({ entry: "GROUP,1:7,BOARD,1:9" }), {
      kind: "one",
      ref: { kind: "BOARD", groupId: 7, id: 9 },
      embedComments: false,
    });
  });

  it("refuses a bad query with the words clients show", () => {
    assertRefusal(() => readBoardQuery({}), "PARAMETER_REQUIRED", "The query parameter group (or entry) is required.");
    assertRefusal(
      () => readBoardQuery({ group: "abc" }),
      "INVALID_GROUP",
      'group must be a group id such as 1:12 (got "abc").',
    );
    assertRefusal(
      () => readBoardQuery({ group: "1:7", "board-folder": long }),
      "INVALID_FOLDER",
      `board-folder must be a folder id, UNCLASSIFIED or TRASH (got "${"x".repeat(40)}…").`,
    );
    assertRefusal(
      () => readBoardQuery({ entry: "nonsense" }),
      "INVALID_ID",
      '"nonsense" is not an item id such as GROUP,1:1,BOARD,1:7.',
    );
    assertRefusal(
      () => readBoardQuery({ entry: "GROUP,1:7,TASK,1:9" }),
      "TOPIC_NOT_FOUND",
      "The topic does not exist.",
    );
    assertRefusal(
      () => readBoardQuery({ group: "1:7", "start-index": "-1" }),
      "INVALID_START_INDEX",
      'start-index must be a number of 0 or more (got "-1").',
    );
  });

  it("refuses a bad write with the words clients show", () => {
    const entry = (inner: string) => feed(`<cbl:operation type="insert"/><entry>${inner}</entry>`);
    assertRefusal(
      () => readBoardWrite(entry("<title>t</title>"), {}),
      "GROUP_REQUIRED",
      "The group to create the topic in is missing (entry/cbl:group id).",
    );
    assertRefusal(
      () => readBoardWrite(entry('<cbl:group id="nope"/>'), {}),
      "INVALID_GROUP",
      'cbl:group id must be a group id such as 1:12 (got "nope").',
    );
    assertRefusal(
      () => readBoardWrite(entry(""), { group: "x" }),
      "INVALID_GROUP",
      // Read from the query, the message names the query parameter.
      'group must be a group id such as 1:12 (got "x").',
    );
    assertRefusal(
      () => readBoardWrite(entry('<cbl:group id="1:7"/>'), { group: "1:8" }),
      "WRONG_GROUP",
      "The group in the entry and the group parameter of the URL differ.",
    );
    const update = (id: string) => feed(`<cbl:operation type="update"/><entry><id>${id}</id></entry>`);
    assertRefusal(() => readBoardWrite(update(" "), {}), "ENTRY_ID_REQUIRED", "entry/id (the topic id) is missing.");
    assertRefusal(
      () => readBoardWrite(update("GROUP,1:7,BOARD"), {}),
      "INVALID_ID",
      '"GROUP,1:7,BOARD" is not an item id such as GROUP,1:1,BOARD,1:7.',
    );
    assertRefusal(
      () => readBoardWrite(update("GROUP,1:7,CABINET,1:2"), {}),
      "TOPIC_NOT_FOUND",
      "The topic does not exist.",
    );
    assertRefusal(
      () => readBoardWrite(feed('<cbl:operation type="move"/>'), {}),
      "INVALID_OPERATION",
      'cbl:operation type "move" is not one of insert, update, delete, lock, unlock.',
    );
  });
});
