// The texts of a group's incoming webhooks page in Japanese (spread into ja.ts).
import type { HOOKS_EN } from "./hooks-en.js";

/** Incoming webhooks (issue 34). */
export const HOOKS_JA: { readonly [K in keyof typeof HOOKS_EN]: string } = {
  "hooks.link": "このグループの受信 Webhook",
  "hooks.title": "受信 Webhook",
  "hooks.back": "メンバーに戻る",
  "hooks.help":
    'Webhook は、CI や監視などのツールが Slack 形式または {"title", "text"} で投稿する秘密のアドレスです。投稿はそれぞれ新しいトピック(または選んだトピックへのコメント)になり、あなたの名前で、1 行目に Webhook の名前を付けて書き込まれます。',
  "hooks.none": "Webhook はまだありません。",
  "hooks.name": "投稿に表示する名前",
  "hooks.nameHelp": "{n} 文字まで。",
  "hooks.topic": "コメントするトピック(ID、任意)",
  "hooks.topicHelp": "空欄なら投稿ごとに新しいトピックを作ります。指定する場合は GROUP,1:1,BOARD,1:2 のような ID。",
  "hooks.add": "Webhook を作る",
  "hooks.created": "Webhook のアドレスです。表示はこの一度だけです(今コピーしてください):",
  "hooks.posts.topic": "新しいトピック",
  "hooks.posts.comment": "{topic} へのコメント",
  "hooks.madeBy": "作成: {name}",
  "hooks.remove": "無効にする",
  "hooks.removeLabel": "{name} を無効にする",
  "hooks.backRoom": "ルームに戻る",
  "hooks.roomLink": "このルームの受信 Webhook",
  "hooks.roomHelp":
    'Webhook は、CI や監視などのツールが Slack 形式または {"title", "text"} で投稿する秘密のアドレスです。投稿はそれぞれこのルームのメッセージになり、あなたの名前で、1 行目に Webhook の名前を付けて書き込まれます。',
  "hooks.posts.chat": "このルームのメッセージ",
  "hooks.creatorNote": "作成した人がグループを抜けると、その Webhook は使えなくなります。",
};
