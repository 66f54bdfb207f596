// When a reminded event starts, as its mail says it: the reader's language and time zone, the zone
// named (a reader may travel), the date alone for an all-day event.
import type { MailLang } from "./texts.js";

/** "Friday, December 4, 2026 at 4:00 PM (Asia/Tokyo)"; "2026年12月4日金曜日 16:00 (Asia/Tokyo)". */
export function reminderWhen(start: number, allDay: boolean, lang: MailLang, zone: string, eventZone: string): string {
  const locale = lang === "ja" ? "ja-JP" : "en-US";
  // An all-day event's day is the one of its own zone, whoever reads it.
  if (allDay) return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: eventZone }).format(start);
  const when = new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "short", timeZone: zone }).format(start);
  return `${when} (${zone})`;
}
