// The rules of two-factor sign-in: who must have it, the codes' shapes, the time steps; and the
// sealing of secrets (another key or owner, or an altered value, opens nothing).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { open, seal } from "../../src/auth/secret-box.js";
import { TWO_FACTOR_POLICIES } from "../../src/domain/site-settings.js";
import {
  asRecoveryCode,
  asTotpCode,
  formatRecoveryCode,
  secondFactorRequired,
  totpStep,
} from "../../src/domain/two-factor.js";

describe("two-factor rules", () => {
  it("requires a second factor by policy or by an administrator's mark", () => {
    const table = TWO_FACTOR_POLICIES.flatMap((policy) =>
      [false, true].flatMap((siteAdmin) =>
        [false, true].map((requiredByAdmin) => [
          `${policy} admin=${siteAdmin} mark=${requiredByAdmin}`,
          secondFactorRequired({ policy, siteAdmin, requiredByAdmin }),
        ]),
      ),
    );
    assert.deepEqual(Object.fromEntries(table), {
      "optional admin=false mark=false": false,
      "optional admin=false mark=true": true,
      "optional admin=true mark=false": false,
      "optional admin=true mark=true": true,
      "admins admin=false mark=false": false,
      "admins admin=false mark=true": true,
      "admins admin=true mark=false": true,
      "admins admin=true mark=true": true,
      "everyone admin=false mark=false": true,
      "everyone admin=false mark=true": true,
      "everyone admin=true mark=false": true,
      "everyone admin=true mark=true": true,
    });
  });

  it("reads six digits as a TOTP code, spaces allowed, and nothing else", () => {
    assert.equal(asTotpCode("123456"), "123456");
    assert.equal(asTotpCode(" 123 456 "), "123456");
    for (const typed of ["12345", "1234567", "12345a", "", "١٢٣٤٥٦"]) assert.equal(asTotpCode(typed), undefined, typed);
  });

  it("reads a recovery code in any case, with or without dashes, of exactly 16 base32 characters", () => {
    const code = "abcdefghijkmnp23";
    assert.equal(formatRecoveryCode(code), "abcd-efgh-ijkm-np23");
    assert.equal(asRecoveryCode("ABCD-EFGH-IJKM-NP23"), code);
    assert.equal(asRecoveryCode("abcd efgh ijkm np23"), code);
    for (const typed of [code.slice(1), `${code}a`, "abcdefghijkmnp21", "123456"])
      assert.equal(asRecoveryCode(typed), undefined, typed);
  });

  it("counts 30-second steps from the epoch (RFC 6238 T0 = 0)", () => {
    assert.equal(totpStep(0), 0);
    assert.equal(totpStep(29_999), 0);
    assert.equal(totpStep(30_000), 1);
    assert.equal(totpStep(59 * 1000), 1);
  });

  it("seals a secret that opens only with its key and owner, unaltered", () => {
    const key = randomBytes(32);
    const sealed = seal(key, "totp:7", "JBSWY3DPEHPK3PXP");
    assert.doesNotMatch(sealed, /JBSWY3DPEHPK3PXP/);
    assert.notEqual(seal(key, "totp:7", "JBSWY3DPEHPK3PXP"), sealed, "a fresh nonce each time");
    assert.equal(open(key, "totp:7", sealed), "JBSWY3DPEHPK3PXP");
    assert.equal(open(key, "totp:8", sealed), undefined, "moved to another account");
    assert.equal(open(randomBytes(32), "totp:7", sealed), undefined, "another site's key");
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    assert.equal(open(key, "totp:7", [parts[0], parts[1], parts[2], body.toString("base64url")].join(".")), undefined);
    assert.equal(open(key, "totp:7", "v2.a.b.c"), undefined);
  });
});
