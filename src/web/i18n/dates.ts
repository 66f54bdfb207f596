// The one way pages print moments and dates: on the server, in the reader's language and time
// zone (their own choice, else the server's --time-zone). Every template goes through the
// chrome's `time`, `day`, `timeTag` and `dayTag`, which use this.
import type { Lang } from "./i18n.js";

/** How one (language, time zone) prints times. */
export interface DateFormat {
  readonly timeZone: string;
  /** A moment: its date and time in the zone ("2026/11/24 17:05", "Nov 24, 2026, 5:05 PM"). */
  moment(ms: number): string;
  /**
   * A calendar date kept as midnight UTC (an all-day due date): the same day in every zone
   * ("2026/11/24", "Nov 24, 2026").
   */
  day(ms: number): string;
}

const LOCALES: Readonly<Record<Lang, string>> = { ja: "ja-JP", en: "en-US" };

// Building an Intl.DateTimeFormat costs some 50 µs; there are at most 2 languages × ~420 zones.
const made = new Map<string, DateFormat>();

/** The format of one language and time zone (a valid IANA name: preferences and config are checked). */
export function dateFormat(lang: Lang, timeZone: string): DateFormat {
  const key = `${lang} ${timeZone}`;
  let format = made.get(key);
  if (format === undefined) {
    const moments = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "medium", timeStyle: "short", timeZone });
    const days = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "medium", timeZone: "UTC" });
    // ICU puts a narrow no-break space before AM/PM in some versions and a space in others: one text either way.
    const plain = (text: string) => text.replace(/\u202f/g, " ");
    format = {
      timeZone,
      moment: (ms) => plain(moments.format(ms)),
      day: (ms) => plain(days.format(ms)),
    };
    made.set(key, format);
  }
  return format;
}

/** A moment as `<time datetime>` wants it: UTC, to the second. */
export function isoMoment(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** A calendar date kept as midnight UTC, as `<time datetime>` wants it: `YYYY-MM-DD`. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
