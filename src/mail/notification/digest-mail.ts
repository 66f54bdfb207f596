// The daily digest: the day's changes in a person's groups, grouped by group, then by item.
import { escapeHtml } from "../message.js";
import {
  type MailFoot,
  type MailLine,
  type MailParts,
  htmlDocument,
  htmlFoot,
  normalized,
  textFoot,
} from "./item-mail.js";
import { type MailLang, PHRASES, changeSentence } from "./texts.js";

/** An item of the digest and what happened to it. */
export interface DigestItem {
  readonly title: string;
  readonly link: string;
  readonly lines: readonly MailLine[];
}

/** A group of the digest. */
export interface DigestGroup {
  readonly name: string;
  readonly items: readonly DigestItem[];
}

/** Everything a digest says. */
export interface DigestInput {
  readonly lang: MailLang;
  /** The moment the digest's day ends, as the reader's clock writes it. */
  readonly dayLabel: string;
  readonly groups: readonly DigestGroup[];
  /** How many changes the digest tells, and whether it left older ones out. */
  readonly count: number;
  readonly more: boolean;
  readonly foot: MailFoot;
}

/** A change's text in a digest: its first line, at most this many characters. */
const EXCERPT_CHARS = 140;

/** The first line of `text`, cut at {@link EXCERPT_CHARS} characters. */
export function excerpt(text: string): string {
  const first = normalized(text).split("\n")[0] ?? "";
  const chars = [...first];
  return chars.length > EXCERPT_CHARS ? `${chars.slice(0, EXCERPT_CHARS).join("")}…` : first;
}

/** The digest message. */
export function digestMail(input: DigestInput): MailParts {
  const { lang } = input;
  const phrases = PHRASES[lang];
  const subject = phrases.digestSubject(input.count, input.more);
  const text: string[] = [phrases.digestIntro(input.dayLabel), ""];
  const html: string[] = [`<p>${escapeHtml(phrases.digestIntro(input.dayLabel))}</p>`];
  for (const group of input.groups) {
    text.push(`■ ${group.name}`, "");
    html.push(`<h2 style="font-size:1.1em">${escapeHtml(group.name)}</h2>`, "<ul>");
    for (const item of group.items) {
      text.push(`  ${item.title}`);
      html.push(`<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.title)}</a><ul>`);
      for (const line of item.lines) {
        const said = line.text === null || normalized(line.text) === "" ? "" : ` ${excerpt(line.text)}`;
        text.push(`  - ${changeSentence(lang, line.words)}${said}`);
        html.push(
          `<li>${escapeHtml(changeSentence(lang, line.words))}${said === "" ? "" : ` <q>${escapeHtml(said.trim())}</q>`}</li>`,
        );
      }
      text.push(`    ${item.link}`, "");
      html.push("</ul></li>");
    }
    html.push("</ul>");
  }
  if (input.more) {
    text.push(phrases.more, "");
    html.push(`<p>${escapeHtml(phrases.more)}</p>`);
  }
  return {
    subject,
    text: `${text.join("\n")}\n${textFoot(lang, input.foot)}`,
    html: htmlDocument(lang, subject, `${html.join("\n")}\n${htmlFoot(lang, input.foot)}`),
  };
}
