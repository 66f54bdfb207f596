// The texts of the folder pages and the group's folder setting in Japanese (spread into ja.ts).
import type { FOLDERS_EN } from "./folders-en.js";

/** 掲示板・ToDo リスト・共有フォルダのフォルダ。 */
export const FOLDERS_JA: { readonly [K in keyof typeof FOLDERS_EN]: string } = {
  "folders.title.board": "掲示板のフォルダ",
  "folders.title.tasks": "ToDo のフォルダ",
  "folders.title.files": "ファイルのフォルダ",
  "folders.manage": "フォルダを管理",
  "folders.back": "{area} に戻る",
  "folders.help": "フォルダは一覧の絞り込みやフォームにこの順で表示されます。",
  "folders.managersOnly": "フォルダを変更できるのはグループの管理者だけです。",
  "folders.none": "フォルダはまだありません。",
  "folders.name": "フォルダ名",
  "folders.newName": "新しいフォルダ",
  "folders.nameHelp": "{n} 文字まで。",
  "folders.add": "フォルダを追加",
  "folders.rename": "名前を変更",
  "folders.up": "上へ",
  "folders.upLabel": "{name} を上へ移動",
  "folders.down": "下へ",
  "folders.downLabel": "{name} を下へ移動",
  "folders.remove": "削除",
  "folders.removeLabel": "{name} を削除",
  "folders.removeHelp": "フォルダを削除しても中身は残り、「未分類」になります。",
  "folders.full": "これ以上フォルダを追加できません。追加するには先にどれかを削除してください。",
  "groupForm.membersManageFolders": "メンバーもフォルダを追加・名前変更・並べ替え・削除できる",
  "groupForm.membersManageFoldersHelp":
    "オフのときは、掲示板・ToDo・ファイルのフォルダを変更できるのは管理者だけです。",
} as const;
