// Names cannot lie about themselves: a bidi control reorders what is shown around it, so
// `x<U+202E>txt.exe` shows as `xexe.txt`. Every rule that checks a name refuses them as control
// characters; the joiners some scripts need are kept.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkRoomTitle } from "../../src/domain/chat.js";
import { ValidationError } from "../../src/domain/errors.js";
import { checkFileName, checkFileText } from "../../src/domain/file.js";
import { checkGroupDraft } from "../../src/domain/group-rules.js";
import { removeControlCharacters } from "../../src/domain/text.js";
import { checkUserNames } from "../../src/domain/user.js";

/** ALM, LRM, RLM, the embeddings and overrides, the isolates. */
const BIDI_CONTROLS = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];

function refusedWith(code: string): (error: unknown) => boolean {
  return (error) => error instanceof ValidationError && error.code === code;
}

describe("names and bidi controls", () => {
  it("refuses every bidi control in file names, file titles, user names, group names and room titles", () => {
    for (const point of BIDI_CONTROLS) {
      const c = String.fromCodePoint(point);
      const at = `U+${point.toString(16).toUpperCase()}`;
      assert.throws(() => checkFileName(`x${c}txt.exe`), refusedWith("FILE_NAME_INVALID"), at);
      assert.throws(() => checkFileText({ title: `x${c}fdp.exe`, memo: "" }), refusedWith("FILE_TITLE_INVALID"), at);
      assert.throws(() => checkUserNames({ name: `Eve${c}` }), refusedWith("USER_NAME_INVALID"), at);
      assert.throws(() => checkUserNames({ familyKana: `か${c}` }), refusedWith("USER_NAME_INVALID"), at);
      assert.throws(() => checkGroupDraft({ name: `G${c}`, summary: "" }), refusedWith("GROUP_NAME_INVALID"), at);
      assert.throws(() => checkRoomTitle(`R${c}`), refusedWith("CHAT_ROOM_TITLE_INVALID"), at);
      assert.equal(removeControlCharacters(`x${c}txt.exe`), "xtxt.exe", at);
    }
  });

  it("keeps the joiners and the zero-width space, and right-to-left names themselves", () => {
    for (const name of ["👩\u200d💻.txt", "می\u200cخواهم.txt", "ภาษา\u200bไทย.txt", "שלום.txt", "مرحبا.txt"]) {
      assert.equal(checkFileName(name), name);
      checkUserNames({ name: name.replace(".txt", "") });
      assert.equal(checkRoomTitle(name), name);
      assert.equal(removeControlCharacters(name), name);
    }
    assert.deepEqual(checkFileText({ title: "a\u200db", memo: "body \u202e keeps its marks" }), {
      title: "a\u200db",
      memo: "body \u202e keeps its marks",
    });
  });

  it("still refuses C0 controls and DEL, as before", () => {
    assert.throws(() => checkFileName("a\u0007b"), refusedWith("FILE_NAME_INVALID"));
    assert.throws(() => checkFileText({ title: "a\u007fb", memo: "" }), refusedWith("FILE_TITLE_INVALID"));
    assert.throws(() => checkRoomTitle("a\u0001"), refusedWith("CHAT_ROOM_TITLE_INVALID"));
  });
});
