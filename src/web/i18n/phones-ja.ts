// The texts of the header as a phone shows it in Japanese (spread into ja.ts).
import type { PHONES_EN } from "./phones-en.js";

/** 幅 600 px 未満でメニューにたたむヘッダー。 */
export const PHONES_JA: { readonly [K in keyof typeof PHONES_EN]: string } = {
  "nav.menu": "メニュー",
  "nav.unconfirmedBadge": "通知: 未確認 {n} 件",
};
