// What every page's template is given besides its own data: language, texts, formatting, the
// signed-in person and their form token, and whether this is the phone (`/m`) variant.
import { formatPair } from "../domain/item-id.js";
import type { MessageKey } from "./i18n/en.js";
import { SafeHtml, escapeHtml, html } from "./layout.js";
import { linkedText } from "./rich-text.js";
import { type Lang, type Translate, formatDate, formatSize, formatTime, translator } from "./i18n/i18n.js";

/** The part of every page that does not depend on the page. */
export interface Chrome {
  readonly lang: Lang;
  readonly t: Translate;
  /** "" for the desktop pages, "/m" for the phone pages (the feeds' `mobile` links). */
  readonly base: "" | "/m";
  readonly mobile: boolean;
  /** The path of this page without `base` (for the desktop/phone switch and sign-in returns). */
  readonly path: string;
  readonly user: { readonly name: string } | undefined;
  /** The session's CSRF token, put into every form. */
  readonly csrf: string | undefined;
  /** Cache-busting suffix of the static files. */
  readonly assetVersion: string;
  /** This page in the other variant (desktop <-> phone). */
  readonly otherVariant: string;
  /** `base` + path: a link that stays in the same variant. */
  u(path: string): string;
  time(ms: number): string;
  date(ms: number): string;
  iso(ms: number): string;
  size(bytes: number): string;
  pair(id: number): string;
  /** `<time datetime>` with the UTC text (the script shows it in the reader's zone). */
  timeTag(ms: number): SafeHtml;
  /** People's text as HTML: escaped, its http(s) addresses made links. For `<%~ %>`. */
  richText(text: string): string;
  /**
   * A text as HTML: the text escaped, placeholders filled with escaped strings or with markup
   * built by this module (a `<time>`, a link). For `<%~ %>` in templates.
   */
  th(key: MessageKey, vars: Readonly<Record<string, string | number | SafeHtml>>): string;
}

/** Builds the chrome of one request. */
export function buildChrome(input: {
  lang: Lang;
  mobile: boolean;
  path: string;
  user: { name: string } | undefined;
  csrf: string | undefined;
  assetVersion: string;
}): Chrome {
  const t = translator(input.lang);
  const base = input.mobile ? "/m" : "";
  return {
    ...input,
    t,
    base,
    otherVariant: input.mobile ? input.path : input.path === "/" ? "/m" : `/m${input.path}`,
    u: (path) => (path === "/" && base === "/m" ? "/m" : `${base}${path}`),
    time: formatTime,
    date: formatDate,
    iso: isoTime,
    size: (bytes) => formatSize(t, bytes),
    pair: formatPair,
    timeTag: (ms) => html`<time datetime="${isoTime(ms)}">${formatTime(ms)}</time>`,
    richText: (text) => linkedText(text).value,
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

function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
