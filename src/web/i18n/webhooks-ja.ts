// The texts of the webhook pages in Japanese (spread into ja.ts).
import type { WEBHOOKS_EN } from "./webhooks-en.js";

/** Outgoing webhooks (issue 34). */
export const WEBHOOKS_JA: Record<keyof typeof WEBHOOKS_EN, string> = {
  "webhooks.title": "Webhook",
  "webhooks.groupLink": "このグループの Webhook",
  "webhooks.personalLink": "自分の Webhook",
  "webhooks.personalIntro":
    "Webhook は、自分あての通知と参加しているチャットルームのメッセージを、署名付きの JSON で指定のアドレスに送ります。",
  "webhooks.groupIntro":
    "Webhook は、グループの変更を署名付きの JSON (Standard Webhooks) で指定のアドレスに送ります。失敗すると 24 時間再送します。",
  "webhooks.back": "戻る",
  "webhooks.none": "Webhook はまだありません。",
  "webhooks.url": "アドレス",
  "webhooks.urlHelp": "http:// または https:// のアドレス（{n} 文字まで）。",
  "webhooks.events": "イベント",
  "webhooks.eventsHelp": "何も選ばないと、すべてのイベントを送ります。",
  "webhooks.add": "Webhook を追加",
  "webhooks.created": "Webhook を追加しました",
  "webhooks.secret": "署名用シークレット",
  "webhooks.secretOnce": "署名用シークレットを今コピーしてください。表示されるのはこの 1 回だけです。",
  "webhooks.open": "配信の記録",
  "webhooks.on": "有効",
  "webhooks.off": "停止中",
  "webhooks.state": "状態",
  "webhooks.failures": "続けて失敗した回数: {n}",
  "webhooks.enable": "再開する",
  "webhooks.disable": "停止する",
  "webhooks.remove": "Webhook を削除",
  "webhooks.log": "配信",
  "webhooks.logEmpty": "まだ配信はありません。",
  "webhooks.when": "日時",
  "webhooks.event": "イベント",
  "webhooks.status": "結果",
  "webhooks.attempts": "試行回数",
  "webhooks.answer": "応答",
  "webhooks.redeliver": "再送",
  "webhooks.status.queued": "待機中",
  "webhooks.status.sent": "配信済み",
  "webhooks.status.failed": "失敗",
  "webhooks.status.skipped": "送信せず",
  "websub.title": "WebSub の購読",
  "websub.intro":
    "このサイトの WebSub ハブが、あなたから見えるとおりのフィードをあなたのコールバックへ送ります。購読を作ったトークンが失効すると終わります。",
  "websub.none": "WebSub の購読はありません。",
  "websub.until": "終了",
  "websub.cancel": "取り消す",
};
