// A repetition rule in words ("Every 2 weeks on Mon, Wed, 10 times"), for the event page.
import { parseEventRule } from "../../domain/event-rule.js";
import type { Lang } from "../i18n/i18n.js";

const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"] as const;
// 2026-11-01 was a Sunday: the weekday names are read from that week.
const A_SUNDAY = Date.UTC(2026, 10, 1);
const DAY_MS = 24 * 60 * 60 * 1000;
const LOCALES: Readonly<Record<Lang, string>> = { en: "en-US", ja: "ja-JP" };

const UNITS = {
  en: { DAILY: ["day", "days"], WEEKLY: ["week", "weeks"], MONTHLY: ["month", "months"], YEARLY: ["year", "years"] },
  ja: { DAILY: ["日", "日"], WEEKLY: ["週", "週"], MONTHLY: ["か月", "か月"], YEARLY: ["年", "年"] },
} as const;

function dayName(code: string, lang: Lang): string {
  const match = /^([+-]?\d+)?(MO|TU|WE|TH|FR|SA|SU)$/.exec(code);
  if (match === null) return code;
  const index = WEEKDAYS.indexOf(match[2] as (typeof WEEKDAYS)[number]);
  const name = new Intl.DateTimeFormat(LOCALES[lang], { weekday: "short", timeZone: "UTC" }).format(
    A_SUNDAY + index * DAY_MS,
  );
  if (match[1] === undefined) return name;
  const n = Number(match[1]);
  if (lang === "ja") return n < 0 ? `最終${name}` : `第${n}${name}`;
  return n < 0 ? `last ${name}` : `${["", "1st", "2nd", "3rd"][n] ?? `${n}th`} ${name}`;
}

/** The rule in the reader's language; `until` formats the UNTIL day. An unreadable rule is shown as stored. */
export function ruleInWords(text: string, lang: Lang, until: (ms: number) => string): string {
  let rule;
  try {
    rule = parseEventRule(text);
  } catch {
    return text;
  }
  const unit = UNITS[lang][rule.frequency][rule.interval === 1 ? 0 : 1];
  const days = rule.byDay.map((day) => dayName(day, lang));
  const monthDays = rule.byMonthDay.map(String);
  if (lang === "ja") {
    let words = rule.interval === 1 ? `毎${unit}` : `${rule.interval} ${unit}ごと`;
    if (days.length > 0) words += `（${days.join("・")}）`;
    if (monthDays.length > 0) words += `（${monthDays.join("・")}日）`;
    if (rule.count !== undefined) words += `、${rule.count} 回`;
    if (rule.until !== undefined) words += `、${until(rule.until.at)} まで`;
    return words;
  }
  let words = rule.interval === 1 ? `Every ${unit}` : `Every ${rule.interval} ${unit}`;
  if (days.length > 0) words += ` on ${days.join(", ")}`;
  if (monthDays.length > 0) words += ` on day ${monthDays.join(", ")}`;
  if (rule.count !== undefined) words += `, ${rule.count} times`;
  if (rule.until !== undefined) words += `, until ${until(rule.until.at)}`;
  return words;
}
