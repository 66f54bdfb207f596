import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ValidationError } from "../../src/domain/errors.js";
import { checkedHeaders, escapeHtml, headerValue, isPlainAddress } from "../../src/mail/message.js";

describe("mail message values", () => {
  it("folds line breaks and control characters out of header values", () => {
    assert.equal(headerValue("Lunch\r\nBcc: victim@example.com"), "Lunch Bcc: victim@example.com");
    assert.equal(headerValue("a\u2028b\u0000c\td"), "a b c d");
    assert.equal(headerValue("  日本語の件名  "), "日本語の件名");
  });

  it("takes one plain address and nothing else", () => {
    assert.ok(isPlainAddress("alice+tag@example.com"));
    for (const bad of ["Alice <alice@example.com>", "alice@example.com\r\nBcc: x@y.z", "alice", "a@b@c", "a @b.c", ""])
      assert.equal(isPlainAddress(bad), false, bad);
  });

  it("refuses a bad recipient or field name, folds field values", () => {
    const base = { kind: "test", subject: "s", text: "t" } as const;
    assert.throws(() => checkedHeaders({ ...base, to: "x@y.z\nBcc: a@b.c" }), ValidationError);
    assert.throws(() => checkedHeaders({ ...base, to: "x@y.z", headers: { "Bad Name": "v" } }), ValidationError);
    assert.deepEqual(checkedHeaders({ ...base, to: "x@y.z", headers: { "List-Id": "G\r\nX: y <g.example.com>" } }), {
      "List-Id": "G X: y <g.example.com>",
    });
  });

  it("escapes what could open markup", () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });
});
