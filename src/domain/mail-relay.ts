// The site's mail relay (the SMTP URL) and From address as an administrator saves them
// (services/settings/mail-relay.ts). Pure: the rules, shared with the --smtp-url and --mail-from
// options (config/mail.ts) so that a saved value is accepted exactly when the option's would be,
// plus the limits a stored value needs.
import { ValidationError } from "./errors.js";
import { hasControlCharacter } from "./text.js";

/** The longest From address: a forward-path holds at most 256 octets with its angle brackets (RFC 5321 4.5.3.1.3). */
export const MAIL_FROM_MAX = 254;
/** The longest relay URL kept in the settings. */
export const SMTP_URL_MAX = 1000;

/** One plain address (`local@domain`): no display name, nothing that could end a header line. */
export const MAIL_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9.-]{1,253}$/;

/** Whether `value` is an `smtp://` or `smtps://` URL: the rule of --smtp-url. */
export function isSmtpUrl(value: string): boolean {
  return /^smtps?:\/\/[^\s/]+/i.test(value) && URL.canParse(value);
}

/**
 * The relay URL to save: the rule of --smtp-url, at most SMTP_URL_MAX characters, no spaces or
 * control characters. The message never repeats the value (it may hold a password).
 * @throws ValidationError SETTING_INVALID
 */
export function checkSmtpUrl(raw: string): string {
  if (raw.length > SMTP_URL_MAX) invalid("mailSmtpUrl", `must be at most ${SMTP_URL_MAX} characters`);
  // The URL parser drops tabs and line breaks silently: refused here rather than saved changed.
  if (/\s/.test(raw) || hasControlCharacter(raw) || !isSmtpUrl(raw))
    invalid("mailSmtpUrl", "must be an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587");
  return raw;
}

/**
 * The From address to save: one plain address (the rule of --mail-from) of at most MAIL_FROM_MAX
 * characters. A line break anywhere is refused, not trimmed: it would start a header of its own.
 * @throws ValidationError SETTING_INVALID
 */
export function checkMailFrom(raw: string): string {
  if (hasControlCharacter(raw)) invalid("mailFrom", "must not hold line breaks or control characters");
  const value = raw.trim();
  if (value.length > MAIL_FROM_MAX) invalid("mailFrom", `must be at most ${MAIL_FROM_MAX} characters`);
  if (!MAIL_ADDRESS.test(value)) invalid("mailFrom", "must be one e-mail address such as kairan@example.com");
  return value;
}

/** `url` with `password` (as typed) in place of its own. */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}

/** `url` without its password: what the form shows back to be edited. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.href;
}

/** `url` as a page or an audit row may show it: scheme, user, host and port, the password as `***`. */
export function maskedSmtpUrl(url: string): string {
  const parsed = new URL(url);
  const user = parsed.username === "" ? "" : `${parsed.username}${parsed.password === "" ? "" : ":***"}@`;
  return `${parsed.protocol}//${user}${parsed.host}`;
}

/** Whether `url` holds a password. */
export function hasPassword(url: string): boolean {
  return new URL(url).password !== "";
}

/** The user name of `url` ("" when none). */
export function userOf(url: string): string {
  return new URL(url).username;
}

function invalid(name: string, rule: string): never {
  throw new ValidationError("SETTING_INVALID", `${name} ${rule}.`);
}
