import { createHash, randomBytes } from "node:crypto";

/**
 * Tokens are stored as their SHA-256: a leaked database does not hand out working tokens, and the
 * lookup by hash compares nothing secret byte by byte in our code.
 */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new random credential: 32 url-safe characters (192 bits). */
export function generateSecret(): string {
  return randomBytes(24).toString("base64url");
}
