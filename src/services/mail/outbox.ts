// The one writer of the mail outbox. A message is a row written in the caller's transaction, so it
// exists exactly when the change that caused it committed; the sender (sender.ts) delivers it after.
import { randomBytes } from "node:crypto";
import type { MailConfig } from "../../config/mail.js";
import { type OutgoingMail, checkedHeaders, headerValue } from "../../mail/message.js";
import type { NewOutboxMail } from "../../store/queries/mail-outbox.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";
import { noteMailQueued } from "./wake.js";

/**
 * What a service that sends mail needs besides the store: the mail settings, and the site's
 * address for the links in its messages. The HTTP and web context is one; the command line makes one.
 */
export interface MailContext extends ServiceContext {
  readonly config: { readonly mail: MailConfig };
  /** `{base_url}`: the public URL, or the listening address once known. */
  readonly baseUrl: () => string;
}

/** How long after writing a message the sender may first try it: at once. */
const FIRST_ATTEMPT_DELAY_MS = 0;

/**
 * Writes `mail` to the outbox in `tx`. Returns its Message-ID, which stays the same through every
 * retry (a message sent twice after a crash is then one message to mail clients).
 * @throws ValidationError MAIL_ADDRESS_INVALID, MAIL_HEADER_INVALID (see mail/message.ts)
 */
export async function queueMail(
  tx: Tx,
  mail: Pick<MailConfig, "domain">,
  message: OutgoingMail,
  now: number,
): Promise<string> {
  const row = outboxRow(mail, message, now);
  await tx.mailOutbox.insert(row);
  // The sender looks at once after this transaction commits (wake.ts).
  noteMailQueued(tx);
  return row.message_id;
}

/**
 * Writes `messages` to the outbox in `tx`, as queueMail does each, with a few multi-row
 * statements: thousands of messages (a post to a large group) cost a fraction of as many inserts.
 * Returns their Message-IDs in order. Nothing is written if any message is refused.
 * @throws ValidationError MAIL_ADDRESS_INVALID, MAIL_HEADER_INVALID (see mail/message.ts)
 */
export async function queueMails(
  tx: Tx,
  mail: Pick<MailConfig, "domain">,
  messages: readonly OutgoingMail[],
  now: number,
): Promise<string[]> {
  const rows = messages.map((message) => outboxRow(mail, message, now));
  await tx.mailOutbox.insertMany(rows);
  if (rows.length > 0) noteMailQueued(tx);
  return rows.map((row) => row.message_id);
}

/** The outbox row of one message, its headers checked and folded. */
function outboxRow(mail: Pick<MailConfig, "domain">, message: OutgoingMail, now: number): NewOutboxMail {
  const headers = checkedHeaders(message);
  const messageId = message.messageId ?? newMessageId(message.kind, mail.domain);
  return {
    message_id: headerValue(messageId),
    kind: message.kind,
    to_address: message.to,
    to_name: message.toName === undefined ? null : headerValue(message.toName),
    user_id: message.userId ?? null,
    subject: headerValue(message.subject),
    text_body: message.text,
    html_body: message.html ?? null,
    headers: JSON.stringify(headers),
    created_at: now,
    next_attempt_at: now + FIRST_ATTEMPT_DELAY_MS,
  };
}

/** A Message-ID no other message has: random, under Kairan's mail domain (RFC 5322 msg-id). */
export function newMessageId(kind: string, domain: string): string {
  return `<${kind}.${randomBytes(12).toString("base64url")}@${domain}>`;
}
