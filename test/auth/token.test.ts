import assert from "node:assert/strict";
import { test } from "node:test";
import { generateSecret } from "../../src/auth/token.js";

test("generated secrets are 32 url-safe characters and never start with a dash", () => {
  // One in 64 base64url strings starts with "-"; 5,000 draws miss that with odds of about e^-78.
  for (let i = 0; i < 5000; i++) {
    const secret = generateSecret();
    assert.match(secret, /^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
  }
});
