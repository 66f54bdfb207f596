// Passkeys' pure rules: a name's bounds (trimmed, 1 to 60 characters, no control characters).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ValidationError } from "../../src/domain/errors.js";
import { PASSKEY_NAME_MAX, asPasskeyName, passkeyChallengeInvalid, passkeyRejected } from "../../src/domain/passkey.js";

const refused = (name: string) =>
  assert.throws(
    () => asPasskeyName(name),
    (error: unknown) => error instanceof ValidationError && error.code === "PASSKEY_NAME_INVALID",
    JSON.stringify(name),
  );

describe("passkey names", () => {
  it("are trimmed and kept at 1 to 60 characters (counted as characters, not UTF-16 units)", () => {
    assert.equal(asPasskeyName("  Laptop \n"), "Laptop");
    assert.equal(asPasskeyName("x"), "x");
    assert.equal(asPasskeyName("x".repeat(PASSKEY_NAME_MAX)), "x".repeat(60));
    assert.equal(asPasskeyName("🔑".repeat(PASSKEY_NAME_MAX)).length, 120);
    refused("x".repeat(PASSKEY_NAME_MAX + 1));
    refused("🔑".repeat(PASSKEY_NAME_MAX + 1));
    refused("");
    refused(" \t ");
  });

  it("hold no control characters, bidi controls included", () => {
    refused("a\u0000b");
    refused("a\u202eb");
    refused("a\u007fb");
    assert.equal(asPasskeyName("電話\u200dの鍵"), "電話\u200dの鍵");
  });

  it("refusals name their code and change nothing", () => {
    assert.equal(passkeyRejected().code, "PASSKEY_REJECTED");
    assert.equal(passkeyChallengeInvalid().code, "PASSKEY_CHALLENGE_INVALID");
  });
});
