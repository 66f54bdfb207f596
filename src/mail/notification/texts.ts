// The words of notification mail in the reader's language. Each sentence takes plain values and
// returns plain text; the templates escape it for the HTML part.
import type { MailEvent, MailItemKind } from "../../domain/mail-change.js";

/** The languages notification mail is written in. */
export type MailLang = "ja" | "en";

/** What one change says: the sentence and whether the text that follows it is the change's. */
export interface ChangeWords {
  readonly actor: string | null;
  readonly event: MailEvent;
  readonly itemKind: MailItemKind;
  readonly title: string;
  readonly groupName: string;
}

const NOUNS: Record<MailLang, Record<MailItemKind, string>> = {
  en: { BOARD: "topic", TASK: "task", CABINET: "file", GW_SCHEDULE: "event", GROUP: "group", CHAT: "conversation" },
  ja: {
    BOARD: "トピック",
    TASK: "タスク",
    CABINET: "ファイル",
    GW_SCHEDULE: "予定",
    GROUP: "グループ",
    CHAT: "チャット",
  },
};

function english(words: ChangeWords): string {
  const who = words.actor ?? "An administrator";
  const noun = NOUNS.en[words.itemKind];
  const title = `“${words.title}”`;
  switch (words.event) {
    case "created":
      return `${who} added the ${noun} ${title}`;
    case "updated":
      return `${who} updated the ${noun} ${title}`;
    case "edited":
      return `${who} edited the ${noun} ${title}:`;
    case "comment":
      return `${who} commented on ${title}:`;
    case "joined":
      return `${who} joined ${words.groupName}`;
    case "left":
      return `${who} left ${words.groupName}`;
    case "mention":
      return `${who} mentioned you in ${title}:`;
    case "assigned":
      return `${who} assigned you the task ${title}:`;
    case "chat":
      return `${who} sent you a message:`;
    case "completed":
      return `${who} completed the ${noun} ${title}`;
    case "reopened":
      return `${who} reopened the ${noun} ${title}`;
    case "version":
      return `${who} uploaded a new version of the ${noun} ${title}`;
    case "reminder":
      return `Reminder: the ${noun} ${title} is coming up:`;
  }
}

function japanese(words: ChangeWords): string {
  const who = words.actor === null ? "管理者" : `${words.actor}さん`;
  const noun = NOUNS.ja[words.itemKind];
  const title = `「${words.title}」`;
  switch (words.event) {
    case "created":
      return `${who}が${noun}${title}を追加しました`;
    case "updated":
      return `${who}が${noun}${title}を更新しました`;
    case "edited":
      return `${who}が${noun}${title}の本文を変更しました：`;
    case "comment":
      return `${who}が${title}にコメントしました：`;
    case "joined":
      return `${who}が${words.groupName}に参加しました`;
    case "left":
      return `${who}が${words.groupName}から退出しました`;
    case "mention":
      return `${who}が${title}であなたをメンションしました：`;
    case "assigned":
      return `${who}があなたにタスク${title}を割り当てました：`;
    case "chat":
      return `${who}からメッセージが届いています：`;
    case "completed":
      return `${who}が${noun}${title}を完了にしました`;
    case "reopened":
      return `${who}が${noun}${title}を未完了に戻しました`;
    case "version":
      return `${who}が${noun}${title}の新しい版をアップロードしました`;
    case "reminder":
      return `リマインダー：${noun}${title}が近づいています：`;
  }
}

/** The sentence that tells one change ("Alice commented on “Plan”:"). */
export function changeSentence(lang: MailLang, words: ChangeWords): string {
  return lang === "ja" ? japanese(words) : english(words);
}

/** Fixed phrases of the messages, per language. */
export const PHRASES = {
  en: {
    open: "Open in Kairan",
    why: "You get this mail because of your notification mail settings.",
    settings: "Change your settings",
    stopGroup: (group: string) => `Stop mail about ${group}`,
    stopDigest: "Stop the daily digest",
    stopPersonal: "Stop mail about mentions, assignments and direct messages",
    digestSubject: (count: number, more: boolean) =>
      `Daily digest: ${more ? "over " : ""}${count} ${count === 1 ? "change" : "changes"} in your groups`,
    digestIntro: (day: string) => `What changed in your groups in the day up to ${day}:`,
    more: "…and older changes: open Kairan to see them all.",
    directSubject: (name: string) => `Message from ${name}`,
  },
  ja: {
    open: "Kairanで開く",
    why: "通知メールの設定により送信しています。",
    settings: "設定を変更する",
    stopGroup: (group: string) => `${group}のメールを停止する`,
    stopDigest: "毎日のまとめを停止する",
    stopPersonal: "メンション・割り当て・ダイレクトメッセージのメールを停止する",
    digestSubject: (count: number, more: boolean) => `毎日のまとめ：グループの更新 ${count} 件${more ? "以上" : ""}`,
    digestIntro: (day: string) => `${day}までの1日にグループで更新された内容です：`,
    more: "ほかにも更新があります。Kairanですべて確認できます。",
    directSubject: (name: string) => `${name}さんからのメッセージ`,
  },
} as const;
