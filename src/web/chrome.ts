// What every page's template is given besides its own data: language, texts, formatting, the
// signed-in person and their form token, and whether this is the phone (`/m`) variant.
import { formatPair } from "../domain/item-id.js";
import type { MessageKey } from "./i18n/en.js";
import { SafeHtml, escapeHtml, html } from "./layout.js";
import { markdownHtml } from "./markdown.js";
import { dateFormat, isoDay, isoMoment } from "./i18n/dates.js";
import { type Lang, type Translate, formatSize, translator } from "./i18n/i18n.js";

/** The part of every page that does not depend on the page. */
export interface Chrome {
  readonly lang: Lang;
  /** The IANA time zone every time on the page is printed in. */
  readonly timeZone: string;
  readonly t: Translate;
  /** "" for the desktop pages, "/m" for the phone pages (the feeds' `mobile` links). */
  readonly base: "" | "/m";
  readonly mobile: boolean;
  /** The path of this page without `base` (for the desktop/phone switch and sign-in returns). */
  readonly path: string;
  /** The signed-in person; `admin` when they administer the site (the header links to /admin). */
  readonly user: { readonly name: string; readonly admin?: boolean } | undefined;
  /** The session's CSRF token, put into every form. */
  readonly csrf: string | undefined;
  /** The header's counts (a signed-in page read by GET); undefined: app.js fetches them. */
  readonly unread?: { readonly notifications: number; readonly chat: number } | undefined;
  /** The browser's zone, offered because it differs from the one the pages are in (pages/zone-offer.ts). */
  readonly zoneOffer?: string | undefined;
  /** Cache-busting suffix of the static files. */
  readonly assetVersion: string;
  /** The site's name (its setting), in every page's title and header. */
  readonly siteName: string;
  /** This page in the other variant (desktop <-> phone). */
  readonly otherVariant: string;
  /** `base` + path: a link that stays in the same variant. */
  u(path: string): string;
  /** A moment in the reader's language and time zone. */
  time(ms: number): string;
  /** A calendar date kept as midnight UTC (all-day due dates), in the reader's language. */
  day(ms: number): string;
  size(bytes: number): string;
  pair(id: number): string;
  /** {@link Chrome.time} inside `<time datetime>` (machines read the UTC moment). */
  timeTag(ms: number): SafeHtml;
  /** People's text as HTML: the safe Markdown subset of markdown.ts. For `<%~ %>`. */
  richText(text: string): string;
  /** {@link Chrome.day} inside `<time datetime="YYYY-MM-DD">`. */
  dayTag(ms: number): SafeHtml;
  /**
   * A person's picture beside their name (decorative: the name is written next to it), or their
   * initial when they have no picture this page may show; `version` changes with the picture.
   */
  avatar(userId: number, name: string, version: string | undefined): SafeHtml;
  /**
   * A text as HTML: the text escaped, placeholders filled with escaped strings or with markup
   * built by this module (a `<time>`, a link). For `<%~ %>` in templates.
   */
  th(key: MessageKey, vars: Readonly<Record<string, string | number | SafeHtml>>): string;
}

/** Builds the chrome of one request. */
export function buildChrome(input: {
  lang: Lang;
  timeZone: string;
  mobile: boolean;
  path: string;
  user: { name: string; admin?: boolean } | undefined;
  csrf: string | undefined;
  unread?: { notifications: number; chat: number } | undefined;
  zoneOffer?: string | undefined;
  assetVersion: string;
  /** The site's name; "Kairan" when not given. */
  siteName?: string | undefined;
}): Chrome {
  const t = translator(input.lang);
  const dates = dateFormat(input.lang, input.timeZone);
  const base = input.mobile ? "/m" : "";
  return {
    ...input,
    siteName: input.siteName ?? "Kairan",
    t,
    base,
    otherVariant: input.mobile ? input.path : input.path === "/" ? "/m" : `/m${input.path}`,
    u: (path) => (path === "/" && base === "/m" ? "/m" : `${base}${path}`),
    time: dates.moment,
    day: dates.day,
    size: (bytes) => formatSize(t, bytes),
    pair: formatPair,
    timeTag: (ms) => html`<time datetime="${isoMoment(ms)}">${dates.moment(ms)}</time>`,
    dayTag: (ms) => html`<time datetime="${isoDay(ms)}">${dates.day(ms)}</time>`,
    avatar: (userId, name, version) =>
      version === undefined
        ? html`<span class="avatar avatar-initial" aria-hidden="true">${initial(name)}</span>`
        : html`<img class="avatar" src="${pictureHref(userId, version)}" alt="" width="32" height="32">`,
    richText: (text) => markdownHtml(text).value,
    th: (key, vars) => {
      const placeholders: Record<string, string> = {};
      const filled: Record<string, string> = {};
      for (const [name, value] of Object.entries(vars)) {
        // A private-use marker no translation contains, replaced by the escaped or safe value after escaping the text.
        placeholders[name] = `\uE000${name}\uE001`;
        filled[name] = value instanceof SafeHtml ? value.value : escapeHtml(String(value));
      }
      return escapeHtml(t(key, placeholders)).replace(
        /\uE000(\w+)\uE001/g,
        (_whole, name: string) => filled[name] ?? "",
      );
    },
  };
}

/** Where a person's picture is served; the version makes a new picture a new address. */
export function pictureHref(userId: number, version: string): string {
  return `/users/${formatPair(userId)}/picture?v=${encodeURIComponent(version)}`;
}

/** The first character of a name (a whole emoji or kanji), upper-cased. */
function initial(name: string): string {
  return (Array.from(name.trim())[0] ?? "?").toUpperCase();
}
