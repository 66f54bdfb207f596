// Tokens that carry their own claims, signed with a key of the site (services/site-key.ts): an
// unsubscribe link, a reply address. Nothing is stored per token; the key and the expiry bound it.
import { createHmac, timingSafeEqual } from "node:crypto";

/** The HMAC-SHA256 of `data` under `key`, for `purpose` (a token of one purpose never verifies as another's). */
export function hmac(key: Buffer, purpose: string, data: Buffer | string): Buffer {
  return createHmac("sha256", key).update(`${purpose}\u0000`).update(data).digest();
}

/** Equal MACs, compared in constant time (unequal lengths are unequal, and the length is public). */
export function macEquals(received: Buffer, expected: Buffer): boolean {
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** Bytes of MAC kept in a URL token: 128 bits. */
const URL_MAC_BYTES = 16;

/**
 * A URL-safe token for `purpose` with `claims` (strings without a NUL) that verifies until
 * `expiresAt` (epoch ms): `base64url(JSON [expiresAt, ...claims]).base64url(MAC)`.
 */
export function signToken(key: Buffer, purpose: string, claims: readonly string[], expiresAt: number): string {
  const payload = Buffer.from(JSON.stringify([expiresAt, ...claims]), "utf8").toString("base64url");
  return `${payload}.${hmac(key, purpose, payload).subarray(0, URL_MAC_BYTES).toString("base64url")}`;
}

/** The claims of a token signed for `purpose` that has not expired at `now`; undefined otherwise. */
export function verifyToken(key: Buffer, purpose: string, token: string, now: number): string[] | undefined {
  const [payload, mac, ...rest] = token.split(".");
  if (payload === undefined || mac === undefined || rest.length > 0 || token.length > 2048) return undefined;
  const expected = hmac(key, purpose, payload).subarray(0, URL_MAC_BYTES);
  if (!macEquals(Buffer.from(mac, "base64url"), expected)) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(decoded) || typeof decoded[0] !== "number" || decoded[0] <= now) return undefined;
  const claims = decoded.slice(1);
  return claims.every((claim): claim is string => typeof claim === "string") ? claims : undefined;
}
