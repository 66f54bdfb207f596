// The header fields that make notification mail thread, name its group and unsubscribe in one
// click (RFC 5322 threading, RFC 2919 List-Id, RFC 2369 and RFC 8058 List-Unsubscribe).
import type { MailItemKind } from "../../domain/mail-change.js";
import { headerValue } from "../message.js";

/**
 * The thread of an item for one reader: every message about the item to that reader answers this
 * id (In-Reply-To, References), so mail clients keep them together. It names no real message.
 */
export function threadId(kind: MailItemKind, itemId: number, userId: number, domain: string): string {
  return `<item-${kind}-${itemId}.u-${userId}@${domain}>`;
}

/**
 * `"Group name" <group-N.domain>` (RFC 2919), on one line. A name beyond ASCII is written as
 * encoded words (RFC 2047) here, so that the id in angle brackets stays plain: given the whole
 * value, nodemailer would encode the brackets too, and mail clients would find no list id.
 */
export function listId(groupName: string, groupId: number, domain: string): string {
  const name = headerValue(groupName);
  const phrase = /^[\x20-\x7e]*$/.test(name)
    ? `"${name.replace(/[\\"]/g, (char) => `\\${char}`)}"`
    : encodedWords(name);
  return `${phrase} <group-${groupId}.${domain}>`;
}

/** Bytes of text per encoded word: its base64 (60 characters) and the markers stay within 75. */
const WORD_BYTES = 45;

/** `text` as RFC 2047 encoded words (UTF-8, base64), cut between characters, separated by spaces. */
export function encodedWords(text: string): string {
  const words: string[] = [];
  let current = "";
  for (const char of text) {
    if (Buffer.byteLength(current + char, "utf8") > WORD_BYTES) {
      words.push(current);
      current = "";
    }
    current += char;
  }
  if (current !== "") words.push(current);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word, "utf8").toString("base64")}?=`).join(" ");
}

/** The header fields of a message with one-click unsubscribe at `url` (an https URL in production). */
export function unsubscribeFields(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The header fields of a message in an item's thread, naming its group's list when it has one. */
export function notificationFields(input: {
  readonly thread: string;
  readonly list: string | undefined;
  readonly unsubscribeUrl: string;
}): Record<string, string> {
  return {
    "In-Reply-To": input.thread,
    References: input.thread,
    ...(input.list === undefined ? {} : { "List-Id": input.list }),
    ...unsubscribeFields(input.unsubscribeUrl),
    // Mail of a machine: no out-of-office answers (RFC 3834).
    "Auto-Submitted": "auto-generated",
  };
}
