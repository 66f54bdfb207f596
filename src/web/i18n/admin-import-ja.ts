// The texts of /admin/import in Japanese (spread into ja.ts).
import type { ADMIN_IMPORT_EN } from "./admin-import-en.js";

/** 元のサービスのエクスポートを取り込む管理画面。 */
export const ADMIN_IMPORT_JA: { readonly [K in keyof typeof ADMIN_IMPORT_EN]: string } = {
  "admin.nav.import": "取り込み",
  "admin.import.intro":
    "元のサービス（サイボウズLive）のグループのデータを Kairan に取り込みます。エクスポートの zip ファイルをアップロードしてください。" +
    "「確認」はすべてのファイルを読み、取り込むと何が作られるかを示します（何も変更しません）。「取り込む」で一度に作ります。" +
    "同じエクスポートをもう一度取り込んでも、二重には作られません。",
  "admin.import.file": "エクスポートの zip ファイル",
  "admin.import.fileHelp": "{size} まで。確認のあと取り込むときは、ファイルをもう一度選んでください。",
  "admin.import.group": "取り込み先のグループ",
  "admin.import.newGroup": "新しいグループ（下の名前で）",
  "admin.import.groupName": "新しいグループの名前（同じ名前のグループがあればそれを使います）",
  "admin.import.timeZone": "エクスポートの時刻のタイムゾーン",
  "admin.import.check": "確認（取り込まない）",
  "admin.import.run": "取り込む",
  "admin.import.reportDry": "確認の結果：何も変更していません",
  "admin.import.reportDone": "取り込みました",
  "admin.import.groupLine": "グループ",
  "admin.import.groupNew": "（新規）",
  "admin.import.groupWouldBe": "{name}（作られます）",
  "admin.import.manageGroup": "管理者とメンバー（管理画面）",
  "admin.import.zoneLine": "時刻のタイムゾーン",
  "admin.import.counts": "作られたもの",
  "admin.import.what": "種類",
  "admin.import.created": "作成",
  "admin.import.wouldCreate": "作成される数",
  "admin.import.already": "取り込み済み",
  "admin.import.count.topics": "トピック",
  "admin.import.count.comments": "コメント",
  "admin.import.count.tasks": "ToDo",
  "admin.import.count.events": "イベント",
  "admin.import.count.accounts": "アカウント（仮）",
  "admin.import.count.members": "参加したメンバー",
  "admin.import.count.chatRooms": "チャットルーム",
  "admin.import.count.chatMessages": "チャットの発言",
  "admin.import.files": "読んだファイル",
  "admin.import.fileName": "ファイル",
  "admin.import.kind": "種類",
  "admin.import.encoding": "文字コード",
  "admin.import.rows": "行数",
  "admin.import.problems": "問題（{n} 件）",
  "admin.import.noProblems": "問題はありません。",
  "admin.import.line": "行",
  "admin.import.column": "列",
  "admin.import.message": "内容",
};
