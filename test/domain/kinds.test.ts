// The registry of item kinds (src/domain/kinds.ts) agrees with the lists that still stand on
// their own: the search's kinds and the notification categories.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CONTENT_KINDS, KINDS, isContentKind, kindOfCategory } from "../../src/domain/kinds.js";
import { formatContentId, isContentRef, parseItemId } from "../../src/domain/item-id.js";
import { categoryOfItemKind, itemKindOfCategory } from "../../src/domain/notification.js";
import { SEARCH_KINDS } from "../../src/domain/search.js";

describe("the registry of item kinds", () => {
  it("knows the four kinds of group content and nothing else", () => {
    assert.deepEqual([...CONTENT_KINDS], ["BOARD", "TASK", "CABINET", "GW_SCHEDULE"]);
    for (const other of ["GROUP", "COMMENT", "MP_SCHEDULE", "MP_CHAT", "board", ""])
      assert.equal(isContentKind(other), false);
  });

  it("parses each kind's id as content", () => {
    for (const kind of CONTENT_KINDS) {
      const ref = parseItemId(formatContentId({ kind, groupId: 2, id: 9 }));
      assert.ok(ref !== undefined && isContentRef(ref), kind);
      assert.deepEqual(ref, { kind, groupId: 2, id: 9 });
    }
    assert.equal(isContentRef({ kind: "GROUP", groupId: 2 }), false);
  });

  it("says which kinds the search finds, as the search's own list does", () => {
    const searched = CONTENT_KINDS.filter((kind) => KINDS[kind].searched);
    assert.deepEqual(searched, SEARCH_KINDS.filter(isContentKind));
  });

  it("maps each kind to its notification category and back", () => {
    for (const kind of CONTENT_KINDS) {
      assert.equal(categoryOfItemKind(kind), KINDS[kind].category);
      assert.equal(itemKindOfCategory(KINDS[kind].category), kind);
      assert.equal(kindOfCategory(KINDS[kind].category), kind);
    }
    assert.equal(itemKindOfCategory("MEMBER_LIST"), "GROUP");
    assert.equal(categoryOfItemKind("GROUP"), "MEMBER_LIST");
    assert.equal(kindOfCategory("MEMBER_LIST"), undefined);
  });
});
