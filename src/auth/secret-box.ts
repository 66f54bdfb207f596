// Secrets kept in the database but never in the clear (TOTP secrets): AES-256-GCM under a site key,
// bound to what they belong to, so a sealed value copied to another account or row does not open.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = "v1";

/** Seals `secret` under `key` (32 bytes) for `owner`: `v1.iv.tag.ciphertext`, base64url. */
export function seal(key: Buffer, owner: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(owner, "utf8"));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The secret `sealed` holds for `owner`; undefined when it was sealed under another key or owner, or altered. */
export function open(key: Buffer, owner: string, sealed: string): string | undefined {
  const [version, iv, tag, body, ...rest] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || rest.length > 0)
    return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(owner, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
