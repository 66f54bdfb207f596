import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  formatCommentId,
  formatContentId,
  formatPersonalEventId,
  formatPersonalTaskId,
  parseGroupParameter,
  parseItemId,
  parsePair,
  parsePersonalEventId,
  parsePersonalTaskId,
} from "../../src/domain/item-id.js";
import { characterCount } from "../../src/domain/text.js";

describe("item ids", () => {
  it("parses every shape of the grammar and formats it back", () => {
    assert.deepEqual(parseItemId("GROUP,1:12"), { kind: "GROUP", groupId: 12 });
    const topic = { kind: "BOARD", groupId: 12, id: 345 } as const;
    assert.deepEqual(parseItemId("GROUP,1:12,BOARD,1:345"), topic);
    assert.equal(formatContentId(topic), "GROUP,1:12,BOARD,1:345");
    assert.deepEqual(parseItemId("GROUP,1:12,BOARD,1:345,COMMENT,3"), { kind: "COMMENT", parent: topic, number: 3 });
    assert.equal(formatCommentId(topic, 3), "GROUP,1:12,BOARD,1:345,COMMENT,3");
    assert.deepEqual(parseItemId("GROUP,1:1,TASK,1:3"), { kind: "TASK", groupId: 1, id: 3 });
    assert.deepEqual(parseItemId("GROUP,1:1,CABINET,1:4"), { kind: "CABINET", groupId: 1, id: 4 });
  });

  it("parses personal event ids, their owner part of them, and formats them back", () => {
    const ref = { kind: "MP_SCHEDULE", ownerId: 3, id: 9 } as const;
    assert.deepEqual(parsePersonalEventId("MYPAGE,1:3,MP_SCHEDULE,1:9"), ref);
    assert.deepEqual(parsePersonalEventId(" MYPAGE,1:3,MP_SCHEDULE,1:9 "), ref);
    assert.equal(formatPersonalEventId(ref), "MYPAGE,1:3,MP_SCHEDULE,1:9");
    for (const other of [
      "MYPAGE,1:3,MP_SCHEDULE,1:9,COMMENT,1",
      "MYPAGE,2:3,MP_SCHEDULE,1:9",
      "MYPAGE,1:0,MP_SCHEDULE,1:9",
      "MYPAGE,1:3,MP_CHAT,1:9",
      "GROUP,1:3,GW_SCHEDULE,1:9",
      "MYPAGE,1:3,MP_SCHEDULE",
    ])
      assert.equal(parsePersonalEventId(other), undefined, other);
  });

  it("recognises ids of areas this server does not hold, and refuses junk", () => {
    assert.deepEqual(parseItemId("GROUP,1:1,GW_SCHEDULE,1:5"), { kind: "GW_SCHEDULE", groupId: 1, id: 5 });
    assert.equal(parseItemId("MYPAGE,1:1,MP_SCHEDULE,1:1")?.kind, "foreign");
    assert.equal(parseItemId("MYPAGE,1:1,MESSAGE,1:2")?.kind, "foreign");
    for (const junk of [
      "",
      "GROUP",
      "GROUP,1",
      "GROUP,2:1",
      "GROUP,1:0",
      "GROUP,1:1,BOARD",
      "GROUP,1:1,BOARD,1:x",
      "GROUP,1:1,BOARD,1:2,COMMENT,0",
      "BOARD,1:1",
      "GROUP,1:1,BOARD,1:2,COMMENT,3,X",
    ]) {
      const parsed = parseItemId(junk);
      assert.ok(parsed === undefined || parsed.kind === "foreign" ? junk !== "GROUP,1:1,BOARD,1:2" : false, junk);
      assert.notEqual(parsed?.kind, "BOARD", junk);
    }
    assert.equal(parsePair("1:12"), 12);
    assert.equal(parsePair("1:012"), undefined);
    assert.equal(parsePair("1:99999999999999999"), undefined, "beyond safe integers");
    assert.equal(parseGroupParameter("GROUP,1:7"), 7);
    assert.equal(parseGroupParameter(" 1:7 "), 7);
    assert.equal(parseGroupParameter("GROUP,1:7,BOARD,1:1"), undefined);
  });

  it("reads and writes personal task ids, and nothing else as one", () => {
    assert.equal(formatPersonalTaskId({ ownerId: 5, id: 9 }), "MYPAGE,1:5,TASK,1:9");
    assert.deepEqual(parsePersonalTaskId(" MYPAGE,1:5,TASK,1:9 "), { ownerId: 5, id: 9 });
    for (const other of [
      "GROUP,1:5,TASK,1:9",
      "MYPAGE,1:5,TASK,1:9,COMMENT,1",
      "MYPAGE,1:5,MP_SCHEDULE,1:9",
      "MYPAGE,2:5,TASK,1:9",
      "MYPAGE,1:0,TASK,1:9",
      "MYPAGE,1:5,TASK,1:09",
    ])
      assert.equal(parsePersonalTaskId(other), undefined, other);
    assert.equal(parseItemId("MYPAGE,1:5,TASK,1:9")?.kind, "foreign", "well formed, and no group content");
  });

  it("counts characters as code points", () => {
    assert.equal(characterCount("abc"), 3);
    assert.equal(characterCount("あいう"), 3);
    assert.equal(characterCount("😀😀"), 2);
    assert.equal(characterCount("\uD800x"), 2, "a lone surrogate is one character");
  });
});
