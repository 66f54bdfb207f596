// The language of a page: the browser's Accept-Language when it names one we have, otherwise
// the server's --locale; and the texts, numbers and times of that language.
import { type MessageKey, en } from "./en.js";
import { ERRORS_JA } from "./errors-ja.js";
import { ja } from "./ja.js";

/** The languages pages are written in. */
export type Lang = "ja" | "en";

const MESSAGES: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, ja };

/** Looks up a text and fills in `{name}` placeholders. */
export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string;

/**
 * The first language of `Accept-Language` (by q, then order) that pages exist in; `fallback`
 * (the server's --locale) when the header names none of them.
 */
export function negotiateLang(header: string | undefined, fallback: Lang): Lang {
  if (!header) return fallback;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) if (entry.primary === "ja" || entry.primary === "en") return entry.primary;
  return fallback;
}

/** The translator of one language. */
export function translator(lang: Lang): Translate {
  const messages = MESSAGES[lang];
  return (key, vars) => {
    const text = messages[key];
    // Templates are not type-checked: a misspelt key fails the page (and its test) instead of printing "undefined".
    if (text === undefined) throw new Error(`no text "${key}" in ${lang}`);
    return vars === undefined
      ? text
      : text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
  };
}

/** A domain error's message in the page's language (the service's own text when not translated). */
export function errorText(lang: Lang, code: string, message: string): string {
  return lang === "ja" ? (ERRORS_JA[code] ?? message) : message;
}

/** A byte count for people: bytes, KB or MB (1024-based, one decimal under 10). */
export function formatSize(t: Translate, bytes: number): string {
  if (bytes < 1024) return t("size.bytes", { n: bytes });
  const kb = bytes / 1024;
  if (kb < 1024) return t("size.kb", { n: kb < 10 ? kb.toFixed(1) : Math.round(kb) });
  const mb = kb / 1024;
  return t("size.mb", { n: mb < 10 ? mb.toFixed(1) : Math.round(mb) });
}
