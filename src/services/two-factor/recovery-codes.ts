// Recovery codes: ten random codes shown once, stored as SHA-256 only, each signing in once.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { hashToken } from "../../auth/token.js";
import { RECOVERY_CODE_CHARS, RECOVERY_CODE_COUNT, asRecoveryCode } from "../../domain/two-factor.js";
import type { Tx } from "../../store/store.js";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** A new random code (80 bits: far beyond what an online guess or an offline search of its hash reaches). */
function newCode(): string {
  const bytes = randomBytes(RECOVERY_CODE_CHARS);
  // 256 is a multiple of 32: every character equally likely.
  return [...bytes].map((byte) => BASE32[byte % 32]).join("");
}

/** Replaces the account's recovery codes with ten new ones (inside `tx`); returns them, the only time they exist in the clear. */
export async function replaceRecoveryCodes(tx: Tx, userId: number, at: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.twoFactor.replaceRecoveryCodes(userId, codes.map(hashToken), at);
  return codes;
}

/**
 * Spends the recovery code typed, if it is one of the account's unused ones: compared with each
 * stored hash in constant time, all of them every time; used at most once even when two requests
 * race (a conditional update). Returns the codes left, or undefined when it is not one.
 */
export async function spendRecoveryCode(
  tx: Tx,
  userId: number,
  typed: string,
  at: number,
): Promise<number | undefined> {
  const code = asRecoveryCode(typed);
  if (code === undefined) return undefined;
  const typedHash = Buffer.from(hashToken(code), "hex");
  const unused = await tx.twoFactor.unusedRecoveryCodes(userId);
  let match: number | undefined;
  for (const { id, hash } of unused) {
    const stored = Buffer.from(hash, "hex");
    if (stored.length === typedHash.length && timingSafeEqual(stored, typedHash) && match === undefined) match = id;
  }
  if (match === undefined || !(await tx.twoFactor.useRecoveryCode(match, at))) return undefined;
  return unused.length - 1;
}
