// Which account a provider's person may use: pure rules of domain/oidc.ts.
import assert from "node:assert/strict";
import { it } from "node:test";
import { decideOidc, identityOf } from "../../src/domain/oidc.js";

const ISSUER = "https://login.example.com";
const identity = (claims: Record<string, unknown>, claim = "email") => identityOf(claims, claim, ISSUER, "sub-1");
const settings = { oidcDomains: [] as string[], oidcCreateUsers: true };
const none = { linkedUserId: undefined, userIdByEmail: undefined };

it("reads a normalised address and a verification that is exactly true", () => {
  const read = identity({ email: " Ann@Example.COM ", email_verified: true, name: "Ann" });
  assert.equal(read.email, "ann@example.com");
  assert.equal(read.emailVerified, true);
  assert.equal(identity({ email: "ann@example.com", email_verified: "true" }).emailVerified, false);
  assert.equal(identity({ email: "not an address" }).email, undefined);
  assert.equal(identity({ email: "ann@example.com\r\nBcc: x@y.z" }).email, undefined);
  assert.equal(identity({ upn: "ann@example.com" }, "upn").email, "ann@example.com");
});

it("names a new account by name, else given and family names, else the address, held to 100 characters", () => {
  assert.equal(identity({ email: "a@x.example", name: " Ann " }).name, "Ann");
  assert.equal(identity({ email: "a@x.example", given_name: "Ann", family_name: "Lee" }).name, "Ann Lee");
  assert.equal(identity({ email: "ann.lee@x.example" }).name, "ann.lee");
  assert.equal([...identity({ email: "a@x.example", name: "名".repeat(150) }).name].length, 100);
});

it("signs a linked person in, links a verified address, and makes an account only for a verified one", () => {
  const verified = identity({ email: "ann@example.com", email_verified: true });
  const unverified = identity({ email: "ann@example.com", email_verified: false });
  assert.deepEqual(decideOidc(settings, unverified, { linkedUserId: 7, userIdByEmail: undefined }), {
    kind: "linked",
    userId: 7,
  });
  assert.deepEqual(decideOidc(settings, verified, { linkedUserId: undefined, userIdByEmail: 3 }), {
    kind: "link",
    userId: 3,
  });
  assert.deepEqual(decideOidc(settings, unverified, { linkedUserId: undefined, userIdByEmail: 3 }), {
    kind: "refuse",
    reason: "unverified",
    userId: 3,
  });
  assert.deepEqual(decideOidc(settings, verified, none), { kind: "create" });
  assert.deepEqual(decideOidc(settings, unverified, none), { kind: "refuse", reason: "unverified" });
  assert.deepEqual(decideOidc({ ...settings, oidcCreateUsers: false }, verified, none), {
    kind: "refuse",
    reason: "no-account",
  });
  assert.deepEqual(decideOidc(settings, identity({}), none), { kind: "refuse", reason: "no-email" });
});

it("applies the allowed domains to every sign-in, linked or not; none listed: any", () => {
  const limited = { ...settings, oidcDomains: ["example.com"] };
  const outside = identity({ email: "ann@example.com.evil.example", email_verified: true });
  assert.deepEqual(decideOidc(limited, outside, { linkedUserId: 7, userIdByEmail: undefined }), {
    kind: "refuse",
    reason: "domain",
  });
  assert.deepEqual(decideOidc(limited, identity({ email: "ann@sub.example.com", email_verified: true }), none), {
    kind: "refuse",
    reason: "domain",
  });
  assert.deepEqual(decideOidc(limited, identity({ email: "ann@example.com", email_verified: true }), none), {
    kind: "create",
  });
});
