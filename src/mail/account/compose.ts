// How an account message is put together: blocks of text (paragraphs and links) written once and
// rendered twice, as the text/plain part and as the text/html part, every value HTML-escaped in
// the latter. Names typed by people are folded onto one line first, so that a name cannot forge
// a paragraph (or a link line) of its own in either part.
import { escapeHtml, headerValue } from "../message.js";

/** The languages messages are written in (the recipient's choice, else the site's --locale). */
export type MailLang = "ja" | "en";

/** A paragraph of text, or a link shown with its address. */
export type Block = { readonly text: string } | { readonly link: string };

/** Subject and both bodies of one message. */
export interface ComposedMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What every account message names: Kairan, as people see it in the sign-in page's title. */
export const SITE_NAME = "Kairan";

/** The site's name a message gives: its setting (the services pass it), else SITE_NAME. */
export function siteOf(mail: { readonly siteName?: string | undefined }): string {
  return oneLine(mail.siteName ?? SITE_NAME);
}

/** A value typed by a person (a name, a group's name) as one line: no line breaks, no controls. */
export function oneLine(value: string): string {
  return headerValue(value);
}

/** The message from its subject and blocks; the HTML part is a whole small document. */
export function compose(lang: MailLang, subject: string, blocks: readonly Block[]): ComposedMail {
  const text = `${blocks.map((block) => ("link" in block ? block.link : block.text)).join("\n\n")}\n`;
  const body = blocks
    .map((block) =>
      "link" in block
        ? `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.link)}</a></p>`
        : `<p>${escapeHtml(block.text)}</p>`,
    )
    .join("\n");
  const html =
    `<!DOCTYPE html>\n<html lang="${lang}">\n<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body>\n${body}\n</body>\n</html>\n`;
  return { subject, text, html };
}

/**
 * A moment in the recipient's language and time zone, with the zone named (a message is read
 * anywhere): "2026年4月1日 18:00 (Asia/Tokyo)", "1 April 2026 at 09:00 (UTC)".
 */
export function moment(at: number, lang: MailLang, timeZone: string): string {
  const format = new Intl.DateTimeFormat(lang === "ja" ? "ja-JP" : "en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone,
  });
  return `${format.format(at)} (${timeZone})`;
}
