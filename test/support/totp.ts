// An authenticator app in the test: reads the secret a page shows and computes codes with the
// otpauth library at the test clock's time (RFC 6238: SHA-1, six digits, 30 seconds).
import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";

/** The secret of the enrolment page (shown in groups of four). */
export function secretOfPage(html: string): string {
  const match = /id="totp-secret">([A-Z2-7 ]+)</.exec(html);
  assert.ok(match, "the page shows the secret");
  return (match[1] ?? "").replace(/ /g, "");
}

/** The code an app shows for `secret` at `now`. */
export function totpCode(secret: string, now: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: now,
  });
}

/** The recovery codes of the page that shows them once. */
export function recoveryCodesOfPage(html: string): string[] {
  return [...html.matchAll(/<li><code>([a-z2-7-]+)<\/code><\/li>/g)].map((m) => m[1] ?? "");
}

/**
 * Turns TOTP on for the person signed in on `web` through the account pages, as they would with an
 * app; returns the secret and the recovery codes. The code used to confirm is spent: move the
 * clock a step before signing in with the next one.
 */
export async function enrolTotp(
  web: {
    get(path: string): Promise<{ html: string }>;
    post(path: string, fields?: Record<string, string>): Promise<{ status: number; html: string }>;
  },
  now: () => number,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await web.get("/account/two-factor");
  await web.post("/account/two-factor/start");
  const secret = secretOfPage((await web.get("/account/two-factor")).html);
  const done = await web.post("/account/two-factor/confirm", { code: totpCode(secret, now()) });
  assert.equal(done.status, 200, "enrolment confirmed");
  return { secret, recoveryCodes: recoveryCodesOfPage(done.html) };
}
