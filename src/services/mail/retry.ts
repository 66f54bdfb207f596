// When a message that could not be delivered is tried again, and when it is given up: pure rules,
// so that the schedule and its bounds are tested without waiting for them.

/** Attempts in all, the first included; after the last failed one the message is `failed`. */
export const MAX_ATTEMPTS = 10;
/** The wait after the first failed attempt; each further one doubles it... */
export const FIRST_RETRY_MS = 30_000;
/** ...up to this: a relay that is down for a day is tried every hour, not once a week. */
export const MAX_RETRY_MS = 60 * 60_000;

/**
 * The wait before the next attempt after `attempts` failed ones (1, 2, ...): 30 s, 1 min, 2 min,
 * ... at most one hour: about three hours from the first attempt to the tenth and last.
 */
export function retryDelayMs(attempts: number): number {
  const doublings = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(FIRST_RETRY_MS * 2 ** doublings, MAX_RETRY_MS);
}

/** What an SMTP or file error means for the message. */
export interface DeliveryFailure {
  /** No retry can help: the server refused this message or recipient for good (5xx). */
  readonly permanent: boolean;
  /** One line for the log and `last_error`, with no secret in it. */
  readonly reason: string;
}

/** The fields of nodemailer's errors that matter here. */
interface SmtpErrorFields {
  readonly code?: unknown;
  readonly responseCode?: unknown;
  readonly response?: unknown;
  readonly command?: unknown;
}

/**
 * Sorts an error into permanent or temporary. A 5xx answer to the message itself (its sender,
 * recipient or content: nodemailer's EENVELOPE and EMESSAGE) is permanent. Everything else is
 * retried: 4xx answers, a server that cannot be reached, and also a refused login (EAUTH, even as
 * 535): that is the relay's configuration, which the operator fixes, not the message's fault.
 */
export function classifyFailure(error: unknown, secrets: readonly string[] = []): DeliveryFailure {
  const fields = (typeof error === "object" && error !== null ? error : {}) as SmtpErrorFields;
  const code = typeof fields.code === "string" ? fields.code : undefined;
  const status = typeof fields.responseCode === "number" ? fields.responseCode : undefined;
  const permanent = status !== undefined && status >= 500 && (code === "EENVELOPE" || code === "EMESSAGE");
  const message = error instanceof Error ? error.message : String(error);
  return { permanent, reason: safeReason(code === undefined ? message : `${code}: ${message}`, secrets) };
}

/** The longest reason kept: an SMTP answer may run on, and a log line should not. */
const MAX_REASON = 300;

/** `text` on one line, at most MAX_REASON characters, each secret (and its URL-encoded form) masked. */
export function safeReason(text: string, secrets: readonly string[]): string {
  let line = text.replace(/\s+/g, " ").trim();
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) line = line.split(form).join("***");
  }
  return line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line;
}
