// WebSub (W3C Recommendation, 23 January 2018) as this hub reads it: the subscription request's
// fields, their limits, and which addresses are topics of this site. Pure.
import { createHash, createHmac } from "node:crypto";
import { ValidationError } from "./errors.js";

/** The hub's numbers (docs/api.md "WebSub"). */
export const WEBSUB_LIMITS = {
  /** The lease given when the request names none: ten days. */
  leaseDefaultSeconds: 864_000,
  /** Leases asked below this are raised to it. */
  leaseMinSeconds: 60,
  /** Leases asked above this are lowered to it: thirty days. */
  leaseMaxSeconds: 2_592_000,
  /** The spec: "hub.secret ... MUST be less than 200 bytes". */
  secretMaxBytes: 199,
  /** Characters of a callback or topic address. */
  urlMaxChars: 2_000,
  /** Subscriptions one person may hold (verified ones, and requests waiting for verification). */
  perUserMax: 100,
  /** How long one verification or distribution may take. */
  requestTimeoutMs: 10_000,
  /** Characters of a callback's answer read (the echoed challenge is far shorter). */
  answerChars: 1_000,
} as const;

/** What a subscriber asked for. */
export interface WebSubRequest {
  readonly mode: "subscribe" | "unsubscribe";
  /** The topic's canonical address: under the site's base, without credentials. */
  readonly topic: string;
  /** The topic's path and query, as a request to this site names it. */
  readonly topicTarget: string;
  readonly callback: string;
  /** Within the hub's bounds. */
  readonly leaseSeconds: number;
  readonly secret: string | undefined;
}

/**
 * Reads a hub request (`application/x-www-form-urlencoded`).
 * @throws ValidationError WEBSUB_MODE_INVALID, WEBSUB_CALLBACK_INVALID, WEBSUB_TOPIC_INVALID,
 *   WEBSUB_TOPIC_FOREIGN, WEBSUB_LEASE_INVALID, WEBSUB_SECRET_TOO_LONG
 */
export function readWebSubRequest(form: URLSearchParams, baseUrl: string): WebSubRequest {
  const mode = form.get("hub.mode");
  if (mode !== "subscribe" && mode !== "unsubscribe")
    throw new ValidationError("WEBSUB_MODE_INVALID", "hub.mode must be subscribe or unsubscribe.");
  const callback = readCallback(form.get("hub.callback"));
  const { topic, topicTarget } = readTopic(form.get("hub.topic"), baseUrl);
  return {
    mode,
    topic,
    topicTarget,
    callback,
    leaseSeconds: readLease(form.get("hub.lease_seconds")),
    secret: readSecret(form.get("hub.secret")),
  };
}

function readCallback(value: string | null): string {
  const url = parseUrl(value);
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || value === null)
    throw new ValidationError("WEBSUB_CALLBACK_INVALID", "hub.callback must be an absolute http or https address.");
  if (value.length > WEBSUB_LIMITS.urlMaxChars)
    throw new ValidationError(
      "WEBSUB_CALLBACK_INVALID",
      `hub.callback is longer than ${WEBSUB_LIMITS.urlMaxChars} characters.`,
    );
  return url.href;
}

/** Query parameters that carry credentials: never part of a topic (they are the caller's, not the feed's). */
const CREDENTIAL_PARAMETER = /^oauth_|token|secret|signature/i;

function readTopic(value: string | null, baseUrl: string): { topic: string; topicTarget: string } {
  const url = parseUrl(value);
  if (url === undefined || value === null || value.length > WEBSUB_LIMITS.urlMaxChars)
    throw new ValidationError(
      "WEBSUB_TOPIC_INVALID",
      `hub.topic must be an absolute address of at most ${WEBSUB_LIMITS.urlMaxChars} characters.`,
    );
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/$/, "");
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/api/`) || url.hash !== "")
    throw new ValidationError(
      "WEBSUB_TOPIC_FOREIGN",
      `hub.topic must be a feed of this site: an address under ${basePath === "" ? base.origin : base.origin + basePath}/api/.`,
    );
  for (const name of [...url.searchParams.keys()]) if (CREDENTIAL_PARAMETER.test(name)) url.searchParams.delete(name);
  // Written as feeds write their self link (http/websub-links.ts), whatever the request's spelling.
  const query = url.searchParams.toString();
  const topicTarget = `${url.pathname.slice(basePath.length)}${query === "" ? "" : `?${query}`}`;
  return { topic: `${base.origin}${basePath}${topicTarget}`, topicTarget };
}

function readLease(value: string | null): number {
  if (value === null || value === "") return WEBSUB_LIMITS.leaseDefaultSeconds;
  if (!/^\d{1,10}$/.test(value))
    throw new ValidationError("WEBSUB_LEASE_INVALID", "hub.lease_seconds must be a whole number of seconds.");
  return Math.min(Math.max(Number(value), WEBSUB_LIMITS.leaseMinSeconds), WEBSUB_LIMITS.leaseMaxSeconds);
}

function readSecret(value: string | null): string | undefined {
  if (value === null || value === "") return undefined;
  if (Buffer.byteLength(value, "utf8") > WEBSUB_LIMITS.secretMaxBytes)
    throw new ValidationError(
      "WEBSUB_SECRET_TOO_LONG",
      `hub.secret must be less than 200 bytes (at most ${WEBSUB_LIMITS.secretMaxBytes}).`,
    );
  return value;
}

function parseUrl(value: string | null): URL | undefined {
  if (value === null) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The path and query of a topic (a canonical address under `baseUrl`), as a request to this site names it. */
export function topicTarget(topic: string, baseUrl: string): string {
  const url = new URL(topic);
  return `${url.pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, "").length)}${url.search}`;
}

/** One subscription per person, topic and callback: the key hashes the two addresses. */
export function subscriptionKey(topic: string, callback: string): string {
  return createHash("sha256").update(`${topic}\n${callback}`).digest("hex");
}

/** What a secret is sealed to: its person and subscription key (auth/secret-box.ts). */
export function websubSecretOwner(userId: number, keyHash: string): string {
  return `websub:${userId}:${keyHash}`;
}

/** The hash a pushed body is compared by: content unchanged since the last push is not pushed again. */
export function contentHash(body: string): string {
  return createHash("sha256").update(body).digest("hex");
}

/** `X-Hub-Signature` of a body under the subscriber's secret (the spec's sha256 method). */
export function hubSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}
