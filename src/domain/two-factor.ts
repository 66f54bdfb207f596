// Two-factor sign-in's rules, pure: who must have a second factor, the shape of a code, and the
// time steps a TOTP code (RFC 6238) is accepted in. Secrets and checks live in services/two-factor/.
import type { TwoFactorPolicy } from "./site-settings.js";

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, six digits, 30-second steps. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted too (clocks drift; people type slowly). */
export const TOTP_WINDOW = 1;
/** Bytes of a new secret: 160 bits, RFC 4226's recommended length. */
export const TOTP_SECRET_BYTES = 20;

/** Recovery codes made at once; each signs in once. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (base32: 5 bits each, so 80 bits of chance). */
export const RECOVERY_CODE_CHARS = 16;

/** Wrong codes an account may get in one window before its second step is refused for the rest of it. */
export const SECOND_FACTOR_FAILURES_MAX = 5;
export const SECOND_FACTOR_WINDOW_MS = 15 * 60 * 1000;
/** How long the second step waits after the password: the time to find one's phone. */
export const SECOND_STEP_MS = 10 * 60 * 1000;

/** What decides whether an account must sign in with a second factor. */
export interface RequirementFacts {
  readonly policy: TwoFactorPolicy;
  readonly siteAdmin: boolean;
  readonly requiredByAdmin: boolean;
}

/** Whether the site's policy or an administrator's mark requires a second factor of this account. */
export function secondFactorRequired(facts: RequirementFacts): boolean {
  if (facts.requiredByAdmin || facts.policy === "everyone") return true;
  return facts.policy === "admins" && facts.siteAdmin;
}

/** The TOTP step of a moment (epoch milliseconds). */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** What a person typed, as a TOTP code (six digits, spaces allowed as apps show them), or undefined. */
export function asTotpCode(typed: string): string | undefined {
  const code = typed.replace(/[\s\u00a0]/g, "");
  return new RegExp(`^[0-9]{${TOTP_DIGITS}}$`).test(code) ? code : undefined;
}

/** What a person typed, as a recovery code (any case, with or without dashes and spaces), or undefined. */
export function asRecoveryCode(typed: string): string | undefined {
  const code = typed.replace(/[\s\u00a0-]/g, "").toLowerCase();
  return new RegExp(`^[a-z2-7]{${RECOVERY_CODE_CHARS}}$`).test(code) ? code : undefined;
}

/** A recovery code as shown: groups of four, `abcd-efgh-ijkl-mnop`. */
export function formatRecoveryCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, "$1-");
}
