// One message about one item: its coalesced changes, a mention, an assignment, or unread direct
// messages. Multipart: the same words as plain text and as HTML, every value escaped in the HTML.
import { escapeHtml } from "../message.js";
import { type ChangeWords, type MailLang, PHRASES, changeSentence } from "./texts.js";

/** One change of the message, with the text it wrote (a comment, the new body), if any. */
export interface MailLine {
  readonly words: ChangeWords;
  readonly text: string | null;
}

/** What one-click unsubscribe in the message stops. */
export type StopWhat =
  { readonly kind: "group"; readonly groupName: string } | { readonly kind: "digest" | "personal" };

/** The links every message carries at its foot. */
export interface MailFoot {
  readonly settingsUrl: string;
  readonly unsubscribeUrl: string;
  readonly stop: StopWhat;
}

/** Everything a message about one item says. */
export interface ItemMailInput {
  readonly lang: MailLang;
  /** The subject: `[group] title`, or the subject as given for a direct message. */
  readonly subject: string;
  readonly lines: readonly MailLine[];
  /** The item's page. */
  readonly link: string;
  readonly foot: MailFoot;
}

/** A message's subject and both parts. */
export interface MailParts {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The subject of every message about an item (kept the same for each, so mail clients thread them). */
export function itemSubject(groupName: string, title: string): string {
  return `[${groupName}] ${title}`;
}

/** Text as one paragraph per line break, escaped. */
export function htmlText(text: string): string {
  return escapeHtml(normalized(text)).replace(/\n/g, "<br>\n");
}

/** Line breaks as LF (CRLF and CR from browsers and API clients). */
export function normalized(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

function stopLabel(lang: MailLang, stop: StopWhat): string {
  const phrases = PHRASES[lang];
  if (stop.kind === "group") return phrases.stopGroup(stop.groupName);
  return stop.kind === "digest" ? phrases.stopDigest : phrases.stopPersonal;
}

/** The foot of the plain text part. */
export function textFoot(lang: MailLang, foot: MailFoot): string {
  const phrases = PHRASES[lang];
  return `-- \n${phrases.why}\n${phrases.settings}: ${foot.settingsUrl}\n${stopLabel(lang, foot.stop)}: ${foot.unsubscribeUrl}\n`;
}

/** The foot of the HTML part. */
export function htmlFoot(lang: MailLang, foot: MailFoot): string {
  const phrases = PHRASES[lang];
  return (
    `<hr>\n<p style="font-size:small;color:#555">${escapeHtml(phrases.why)}<br>\n` +
    `<a href="${escapeHtml(foot.settingsUrl)}">${escapeHtml(phrases.settings)}</a> · ` +
    `<a href="${escapeHtml(foot.unsubscribeUrl)}">${escapeHtml(stopLabel(lang, foot.stop))}</a></p>\n`
  );
}

/** An HTML document around `body`. */
export function htmlDocument(lang: MailLang, subject: string, body: string): string {
  return (
    `<!doctype html>\n<html lang="${lang}">\n<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>\n` +
    `<body style="font-family:sans-serif;line-height:1.5;color:#222">\n${body}</body>\n</html>\n`
  );
}

/** The message about one item. */
export function itemMail(input: ItemMailInput): MailParts {
  const { lang } = input;
  const phrases = PHRASES[lang];
  const textLines: string[] = [];
  const htmlLines: string[] = [];
  for (const line of input.lines) {
    const sentence = changeSentence(lang, line.words);
    textLines.push(sentence);
    htmlLines.push(`<p><strong>${escapeHtml(sentence)}</strong></p>`);
    if (line.text !== null && normalized(line.text) !== "") {
      textLines.push("", normalized(line.text));
      htmlLines.push(
        `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc">${htmlText(line.text)}</blockquote>`,
      );
    }
    textLines.push("");
  }
  const text = `${textLines.join("\n")}\n${phrases.open}: ${input.link}\n\n${textFoot(lang, input.foot)}`;
  const body =
    `${htmlLines.join("\n")}\n<p><a href="${escapeHtml(input.link)}">${escapeHtml(phrases.open)}</a></p>\n` +
    htmlFoot(lang, input.foot);
  return { subject: input.subject, text, html: htmlDocument(lang, input.subject, body) };
}
