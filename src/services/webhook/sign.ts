// Standard Webhooks signing (https://www.standardwebhooks.com/): the secret is `whsec_` and base64
// of random bytes; the signature is HMAC-SHA256, keyed with those bytes, of
// `{webhook-id}.{webhook-timestamp}.{body}`, sent as `v1,{base64}`.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";
/** Bytes of a new secret (the specification asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_...`. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** The headers of one signed delivery: `webhook-id`, `webhook-timestamp` (seconds), `webhook-signature`. */
export function signedHeaders(
  secret: string,
  message: { readonly id: string; readonly at: number; readonly body: string },
): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const timestamp = String(Math.floor(message.at / 1000));
  const signature = createHmac("sha256", key).update(`${message.id}.${timestamp}.${message.body}`).digest("base64");
  return { "webhook-id": message.id, "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` };
}
