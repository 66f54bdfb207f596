import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { REPLY_PREFIX, signReplyToken, verifyReplyToken } from "../../src/auth/reply-token.js";
import { type ReplyClaims, type ReplyItem, replyExpiry } from "../../src/domain/reply.js";

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);
const HOUR = 3_600_000;
const NOW = Date.parse("2026-04-01T09:00:00Z");
const EXPIRES = replyExpiry(NOW);
const MAX_ID = Number.MAX_SAFE_INTEGER;

const items: readonly ReplyItem[] = [
  { kind: "BOARD", groupId: 1, id: 2 },
  { kind: "TASK", groupId: 3, id: 4 },
  { kind: "CABINET", groupId: 5, id: 6 },
  { kind: "GW_SCHEDULE", groupId: 7, id: 8 },
  { kind: "CHAT", roomId: 9 },
];

describe("reply tokens", () => {
  it("expire 90 days after they are made, on a whole hour", () => {
    assert.equal(EXPIRES, NOW + 90 * 24 * HOUR);
    assert.equal(replyExpiry(NOW + 1), NOW + 90 * 24 * HOUR + HOUR);
    assert.equal(replyExpiry(NOW + HOUR - 1), replyExpiry(NOW + 1));
  });

  it("carry the recipient and the item of every kind, read back in any case", () => {
    for (const item of items) {
      const claims: ReplyClaims = { userId: 42, item, expiresAt: EXPIRES };
      const token = signReplyToken(key, claims);
      assert.match(token, /^[a-z2-7]+$/);
      assert.deepEqual(verifyReplyToken(key, token, NOW), claims);
      assert.deepEqual(verifyReplyToken(key, token.toUpperCase(), NOW), claims);
      assert.ok(REPLY_PREFIX.length + token.length <= 40, `${token.length} characters for small ids`);
    }
  });

  it("keep the local part within 64 characters for the largest ids", () => {
    for (const item of [
      { kind: "BOARD", groupId: MAX_ID, id: MAX_ID } as const,
      { kind: "CHAT", roomId: MAX_ID } as const,
    ]) {
      const claims: ReplyClaims = { userId: MAX_ID, item, expiresAt: EXPIRES };
      const token = signReplyToken(key, claims);
      assert.ok(REPLY_PREFIX.length + token.length <= 64, `${REPLY_PREFIX.length + token.length} characters`);
      assert.deepEqual(verifyReplyToken(key, token, NOW), claims);
    }
  });

  it("work until the hour they expire and not at it", () => {
    const token = signReplyToken(key, { userId: 1, item: items[0] as ReplyItem, expiresAt: EXPIRES });
    assert.notEqual(typeof verifyReplyToken(key, token, EXPIRES - 1), "string");
    assert.equal(verifyReplyToken(key, token, EXPIRES), "expired");
  });

  it("refuse another key, any changed character, a truncation, an extension and junk", () => {
    const token = signReplyToken(key, { userId: 42, item: items[0] as ReplyItem, expiresAt: EXPIRES });
    assert.equal(verifyReplyToken(other, token, NOW), "invalid");
    for (let i = 0; i < token.length; i++) {
      const changed = `${token.slice(0, i)}${token[i] === "a" ? "b" : "a"}${token.slice(i + 1)}`;
      assert.equal(verifyReplyToken(key, changed, NOW), "invalid", `character ${i}`);
    }
    for (const junk of [
      "",
      "a",
      token.slice(0, -1),
      `${token}a`,
      `${token}aa`,
      "1".repeat(40),
      "x".repeat(65),
      "reply",
    ])
      assert.equal(verifyReplyToken(key, junk, NOW), "invalid", junk);
  });

  it("refuse random text: without the key no token verifies, expired or not", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z2-7]{1,64}$/), (text) => {
        assert.equal(verifyReplyToken(key, text, NOW), "invalid");
      }),
    );
  });
});
