import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hmac, macEquals, signToken, verifyToken } from "../../src/auth/signed-token.js";

const key = Buffer.alloc(32, 7);
const other = Buffer.alloc(32, 8);

describe("signed tokens", () => {
  it("verify with the same key and purpose until they expire", () => {
    const token = signToken(key, "unsubscribe", ["42", "notification"], 2_000);
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(verifyToken(key, "unsubscribe", token, 1_999), ["42", "notification"]);
    assert.equal(verifyToken(key, "unsubscribe", token, 2_000), undefined);
  });

  it("refuse another key, another purpose, a changed claim or a changed MAC", () => {
    const token = signToken(key, "unsubscribe", ["42"], 2_000);
    assert.equal(verifyToken(other, "unsubscribe", token, 0), undefined);
    assert.equal(verifyToken(key, "reply", token, 0), undefined);
    const [payload, mac] = token.split(".") as [string, string];
    const forged = Buffer.from(JSON.stringify([2_000, "43"])).toString("base64url");
    assert.equal(verifyToken(key, "unsubscribe", `${forged}.${mac}`, 0), undefined);
    const flipped = mac.startsWith("A") ? `B${mac.slice(1)}` : `A${mac.slice(1)}`;
    assert.equal(verifyToken(key, "unsubscribe", `${payload}.${flipped}`, 0), undefined);
    for (const junk of ["", ".", "a.b.c", `${payload}.`, "x".repeat(3000)])
      assert.equal(verifyToken(key, "unsubscribe", junk, 0), undefined, junk);
  });

  it("compares MACs of unequal length as unequal", () => {
    const mac = hmac(key, "p", "data");
    assert.ok(macEquals(mac, Buffer.from(mac)));
    assert.equal(macEquals(mac.subarray(0, 16), mac), false);
  });
});
