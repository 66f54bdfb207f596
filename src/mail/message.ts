// What a message is before it reaches the outbox: plain data that services compose (with the
// templates of this folder) and services/mail/outbox.ts writes. Nothing here sends anything.
import { ValidationError } from "../domain/errors.js";

/** Why a message is sent; the outbox lists and the unsubscribe links name these. */
export type MailKind =
  | "invitation"
  | "password-reset"
  | "address-confirm"
  | "address-changed"
  | "notification"
  | "digest"
  | "reply-refused"
  | "setup"
  | "test"
  | "webhook-disabled";

/** One message to one recipient. */
export interface OutgoingMail {
  readonly kind: MailKind;
  /** One plain address (`name@example.com`). */
  readonly to: string;
  /** The recipient's name, shown beside the address. */
  readonly toName?: string | undefined;
  /** The recipient's account, when they have one. */
  readonly userId?: number | undefined;
  readonly subject: string;
  /** The text/plain part; always present. */
  readonly text: string;
  /** The text/html part, when the message has one (multipart/alternative). */
  readonly html?: string | undefined;
  /**
   * Further header fields by name (`In-Reply-To`, `References`, `List-Id`, `List-Unsubscribe`,
   * `List-Unsubscribe-Post`, `Reply-To`). Values are folded onto one line before they are stored.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The Message-ID (`<local@domain>`); made up when absent. */
  readonly messageId?: string | undefined;
}

/** One plain address: no display name, nothing that could end a header line. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/** Whether `value` is one plain e-mail address that can go into a header as it is. */
export function isPlainAddress(value: string): boolean {
  return PLAIN_ADDRESS.test(value);
}

// eslint-disable-next-line no-control-regex -- removing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/**
 * `value` as a header field's value: line breaks and other control characters (a title or a name
 * typed with CR/LF, the header injection of RFC 5322 fields) become spaces, runs of spaces one.
 */
export function headerValue(value: string): string {
  return value.replace(CONTROL_CHARACTERS, " ").replace(/ {2,}/g, " ").trim();
}

/** A header field name as RFC 5322 allows it (printable ASCII but the colon). */
const FIELD_NAME = /^[!-9;-~]{1,76}$/;

/**
 * The header fields of `mail`, checked: a field name that is not one, or an address that is not a
 * plain address, is a programming error of the caller and refused (nothing is written).
 * @throws ValidationError MAIL_ADDRESS_INVALID, MAIL_HEADER_INVALID
 */
export function checkedHeaders(mail: OutgoingMail): Record<string, string> {
  if (!isPlainAddress(mail.to))
    throw new ValidationError("MAIL_ADDRESS_INVALID", "the recipient is not an e-mail address");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(mail.headers ?? {})) {
    if (!FIELD_NAME.test(name))
      throw new ValidationError("MAIL_HEADER_INVALID", `bad header field name ${JSON.stringify(name)}`);
    headers[name] = headerValue(value);
  }
  return headers;
}

/** `text` for an HTML body: the five characters that could open markup or end an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
