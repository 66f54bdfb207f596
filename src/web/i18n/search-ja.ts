// The search page's texts for the kinds issue 31 added, in Japanese (spread into ja.ts).
import type { SEARCH_EN } from "./search-en.js";

/** 検索結果の予定・個人の予定・チャット・グループ。 */
export const SEARCH_JA: { readonly [K in keyof typeof SEARCH_EN]: string } = {
  "search.kind.G_SCHEDULE": "予定",
  "search.kind.M_SCHEDULE": "個人の予定",
  "search.kind.M_CHAT": "チャット",
  "search.kind.GROUP": "グループ",
  "search.myCalendar": "マイカレンダー",
  "search.inRoom": "チャット: {room}",
} as const;
