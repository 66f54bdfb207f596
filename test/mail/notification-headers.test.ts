import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodedWords, listId, notificationFields, threadId } from "../../src/mail/notification/headers.js";

const decode = (text: string) =>
  text.replace(/=\?UTF-8\?B\?([^?]*)\?=\s*/g, (_whole, data: string) => Buffer.from(data, "base64").toString("utf8"));

describe("notification mail's header fields", () => {
  it("names the group's list: a quoted ASCII name, encoded words beyond ASCII, the id always plain", () => {
    assert.equal(listId("Design team", 4, "example.com"), '"Design team" <group-4.example.com>');
    assert.equal(listId('Say "hi" \\ bye', 4, "example.com"), '"Say \\"hi\\" \\\\ bye" <group-4.example.com>');
    assert.equal(listId("A\r\nBcc: x@example.com", 4, "example.com"), '"A Bcc: x@example.com" <group-4.example.com>');
    const long = "設計チーム".repeat(20);
    const value = listId(long, 7, "example.com");
    assert.match(value, / <group-7\.example\.com>$/);
    const phrase = value.slice(0, value.lastIndexOf(" <"));
    for (const word of phrase.split(" ")) assert.ok(word.length <= 75, `${word.length}: ${word}`);
    assert.equal(decode(phrase), long);
    assert.equal(decode(encodedWords("😀".repeat(30))), "😀".repeat(30), "never inside a character");
  });

  it("threads every message about an item to a reader under one id, and unsubscribes in one click", () => {
    assert.equal(threadId("TASK", 12, 3, "example.com"), "<item-TASK-12.u-3@example.com>");
    const fields = notificationFields({
      thread: "<item-TASK-12.u-3@example.com>",
      list: undefined,
      unsubscribeUrl: "https://kairan.example.com/unsubscribe/abc.def",
    });
    assert.deepEqual(fields, {
      "In-Reply-To": "<item-TASK-12.u-3@example.com>",
      References: "<item-TASK-12.u-3@example.com>",
      "List-Unsubscribe": "<https://kairan.example.com/unsubscribe/abc.def>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      "Auto-Submitted": "auto-generated",
    });
  });
});
