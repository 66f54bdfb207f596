// A stored message as the bytes that leave: composed once, whole, with nodemailer's MailComposer,
// then handed to the SMTP relay as they are (`raw`) or written to the outbox folder, so both ways
// carry the same bytes (the same Message-ID and Date too).
import type * as MailComposerModule from "nodemailer/lib/mail-composer";
import { headerValue } from "../../mail/message.js";
import type { OutboxMail } from "../../store/queries/mail-outbox.js";

/** nodemailer's composer, loaded with the first message: a server that never sends mail does not hold it. */
let composerModule: Promise<typeof MailComposerModule> | undefined;

/**
 * The RFC 5322 message of `row`, from `from` (the plain --mail-from address) named `fromName` (the
 * site's name, as the settings say it when the message is claimed), with CRLF line ends. The Message-ID is the one fixed
 * when the row was written, and Date its creation time: a message sent twice (a crash between
 * sending and recording it) is the same message twice, which mail clients show once. With an HTML
 * body the message is multipart/alternative (text first); the stored extra headers go as they are
 * (queueMail folded them onto one line).
 */
export async function composeMessage(row: OutboxMail, from: string, fromName?: string): Promise<Buffer> {
  const { default: MailComposer } = await (composerModule ??= import("nodemailer/lib/mail-composer"));
  const composer = new MailComposer({
    // nodemailer quotes or encodes the name; headerValue took out anything that could end the line.
    from: fromName === undefined ? from : { name: headerValue(fromName), address: from },
    to: row.to_name === null ? row.to_address : { name: row.to_name, address: row.to_address },
    subject: row.subject,
    text: crlf(row.text_body),
    ...(row.html_body === null ? {} : { html: crlf(row.html_body) }),
    messageId: row.message_id,
    date: new Date(row.created_at),
    headers: storedHeaders(row.headers),
    // A message's bodies are text Kairan wrote: nothing in them may make nodemailer read a file or fetch a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return composer.compile().build();
}

/** The SMTP envelope of `row`: from Kairan's address to the one recipient. */
export function envelopeOf(row: OutboxMail, from: string): { from: string; to: string[] } {
  return { from, to: [row.to_address] };
}

/** Line ends as mail has them (a 7bit part keeps the body's own). */
function crlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

/** The stored JSON object of extra header fields; anything else (never written by queueMail) is none. */
function storedHeaders(json: string): Record<string, string> {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) if (typeof value === "string") headers[name] = value;
  return headers;
}
