import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { type ExportFile, readExport } from "../../../src/domain/cybozulive/bundle.js";
import { DEFAULT_EVENT_MS } from "../../../src/domain/cybozulive/events.js";
import { ImportFileError } from "../../../src/domain/cybozulive/errors.js";

const FIXTURES = resolve(import.meta.dirname, "../../fixtures/cybozulive");
const folder = (name: string): ExportFile[] =>
  readdirSync(join(FIXTURES, name)).map((file) => ({ name: file, bytes: readFileSync(join(FIXTURES, name, file)) }));
const iso = (wall: number) => new Date(wall).toISOString().slice(0, 16);
const csv = (rows: readonly (readonly string[])[]) =>
  Buffer.from(rows.map((row) => row.map((v) => `"${v.replaceAll('"', '""')}"`).join(",")).join("\r\n") + "\r\n");
const TODO_HEADER = [
  "ID",
  "タイトル",
  "本文",
  "作成者",
  "作成日時",
  "更新者",
  "更新日時",
  "ステータス",
  "優先度",
  "担当者",
  "期日",
  "コメント",
];
const EVENT_HEADER = [
  "開始日付",
  "開始時刻",
  "終了日付",
  "終了時刻",
  "予定メニュー",
  "タイトル",
  "メモ",
  "作成者",
  "コメント",
];

function failure(files: ExportFile[]): ImportFileError {
  try {
    readExport(files);
  } catch (error) {
    assert.ok(error instanceof ImportFileError, String(error));
    return error;
  }
  assert.fail("the read should fail");
}

describe("readExport: the Japanese export in Windows-31J", () => {
  const bundle = readExport(folder("ja-cp932"));

  it("tells the files apart by their headers and reads them as Windows-31J", () => {
    assert.deepEqual(bundle.files.map((file) => [file.kind, file.encoding, file.rows]).sort(), [
      ["board", "windows-31j", 3],
      ["chat", "utf-8", 4],
      ["events", "windows-31j", 4],
      ["members", "windows-31j", 4],
      ["todo", "windows-31j", 4],
    ]);
  });

  it("reads topics with their comments oldest first, vendor characters and doubled quotes", () => {
    const topic = bundle.topics.find((t) => t.sourceId === "1:100");
    assert.equal(topic?.body, "議題は以下です。\n1. 進捗\n2. 予定\n[file:1]");
    assert.equal(topic?.author, "鈴木 花子");
    assert.deepEqual([iso(topic?.created ?? 0), iso(topic?.updated ?? 0)], ["2018-03-01T13:48", "2018-03-02T09:10"]);
    assert.deepEqual(
      topic?.comments.map((c) => [c.number, c.author]),
      [
        [1, "鈴木 花子"],
        [2, "(サービス退会者)"],
        [3, "Taro Sato"],
      ],
    );
    assert.equal(topic?.comments[2]?.body, `区切り線を含む本文\n${"-".repeat(50)}\nここまで`);
    assert.equal(bundle.topics.find((t) => t.sourceId === "1:101")?.title, "髙橋さん①の件");
    assert.equal(bundle.topics.find((t) => t.sourceId === "1:102")?.title, '見積の"至急"確認');
  });

  it("drops a comment without text and says so with its line", () => {
    assert.deepEqual(bundle.topics.find((t) => t.sourceId === "1:102")?.comments, []);
    const problem = bundle.problems.find((p) => p.kind === "EMPTY_COMMENT" && p.file.endsWith(".csv"));
    assert.equal(problem?.file, "live_掲示板_20180305.csv");
    assert.equal(problem?.line, 3);
  });

  it("reads tasks: status, priority, assignees, due dates with and without a time", () => {
    const byId = new Map(bundle.tasks.map((t) => [t.sourceId, t]));
    assert.deepEqual(
      ["1:200", "1:201", "1:202", "1:203"].map((id) => {
        const t = byId.get(id);
        return [t?.status, t?.priority, t?.assignees, t?.due && [iso(t.due.wall), t.due.hasTime]];
      }),
      [
        ["IN_PROGRESS", "A", ["鈴木 花子"], ["2018-03-10T00:00", false]],
        ["ON_HOLD", "B", ["Taro Sato", "鈴木 花子"], ["2018-03-09T09:30", true]],
        ["COMPLETED", "S", [], null],
        ["NOT_STARTED", "C", ["田中 一郎"], null],
      ],
    );
  });

  it("reads events: timed, all-day over one and two days, and an end time left out", () => {
    assert.deepEqual(
      bundle.events.map((e) => [e.title, e.allDay, iso(e.start), iso(e.end), e.memo, e.menu]),
      [
        ["時間指定", false, "2018-03-02T13:10", "2018-03-02T13:45", "", "往訪"],
        ["終日の予定", true, "2018-03-05T00:00", "2018-03-06T00:00", "[file:1]\n書式なし", "会議"],
        ["二日間の研修", true, "2018-03-06T00:00", "2018-03-08T00:00", "", "勉強会"],
        ["終了時刻なし", false, "2018-03-08T10:00", iso(Date.parse("2018-03-08T10:00Z") + DEFAULT_EVENT_MS), "", ""],
      ],
    );
    assert.equal(bundle.events[0]?.comments[0]?.body, "お疲れさまでした");
  });

  it("reads the member list with readings and lower-case addresses", () => {
    assert.deepEqual(
      bundle.members.map((m) => [m.name, m.familyKana, m.email]),
      [
        ["鈴木 花子", "すずき", "hanako@example.com"],
        ["Taro Sato", "", "taro@example.com"],
        ["田中 一郎", "たなか", "tanaka1@example.com"],
        ["田中 一郎", "たなか", "tanaka2@example.com"],
      ],
    );
  });
});

describe("readExport: the English export in UTF-8", () => {
  const bundle = readExport(folder("en-utf8"));

  it("reads English headers, a BOM, English comment dates and English statuses", () => {
    assert.deepEqual(bundle.files.map((f) => [f.name, f.kind]).sort(), [
      ["Lunch chat.txt", "chat"],
      ["live_Events_20180713.csv", "events"],
      ["live_Forum_20180713.csv", "board"],
      ["live_Member List_20180713.csv", "members"],
      ["live_To-Do List_20180713.csv", "todo"],
    ]);
    const welcome = bundle.topics.find((t) => t.sourceId === "1:500");
    assert.deepEqual(
      welcome?.comments.map((c) => [c.author, iso(c.wall)]),
      [
        ["Alice Smith", "2018-07-12T17:30"],
        ["Bob Jones", "2018-07-13T08:36"],
      ],
    );
    assert.deepEqual(
      bundle.tasks.map((t) => [t.status, t.priority]),
      [
        ["NOT_STARTED", "A"],
        ["COMPLETED", "B"],
      ],
    );
    assert.deepEqual(bundle.problems, []);
  });

  it("reads the chat room's text file: title, description and posts", () => {
    assert.deepEqual(
      bundle.chatRooms.map((room) => [room.file, room.title, room.description, room.posts.length]),
      [["Lunch chat.txt", "Lunch", "Where to eat", 2]],
    );
    assert.equal(bundle.chatRooms[0]?.posts[1]?.body, `Yes\n${"-".repeat(80)}\nthe place by the station`);
  });
});

describe("readExport: chat rooms' text files", () => {
  const bundle = readExport(folder("ja-cp932"));

  it("reads a room with a BOM, newest first, and skips a message without text, reported with its line", () => {
    const [room] = bundle.chatRooms;
    assert.deepEqual([room?.title, room?.description], ["雑談", "気軽にどうぞ\n業務連絡は掲示板へ"]);
    assert.deepEqual(
      room?.posts.map((p) => [p.number, p.author, iso(p.wall), p.line]),
      [
        [4, "鈴木 花子", "2018-03-02T12:30", 8],
        [2, "Taro Sato", "2018-03-01T18:05", 18],
        [1, "鈴木 花子", "2018-03-01T18:00", 25],
      ],
    );
    assert.deepEqual(
      bundle.problems.filter((p) => p.file.endsWith(".txt")).map((p) => [p.kind, p.line]),
      [["EMPTY_COMMENT", 13]],
    );
  });

  it("skips a text file that is no chat export, and reports it", () => {
    const other = readExport([{ name: "notes.txt", bytes: Buffer.from("to do\r\n") }]);
    assert.deepEqual(
      other.files.map((f) => [f.name, f.kind]),
      [["notes.txt", "unknown"]],
    );
    assert.deepEqual(
      other.problems.map((p) => [p.file, p.kind]),
      [["notes.txt", "UNKNOWN_FILE"]],
    );
  });
});

describe("readExport: broken and odd files", () => {
  it("skips a CSV that is none of the export's files, and reports it", () => {
    const bundle = readExport([{ name: "notes.csv", bytes: Buffer.from("a,b\r\n1,2\r\n") }]);
    assert.deepEqual(
      bundle.problems.map((p) => [p.file, p.kind]),
      [["notes.csv", "UNKNOWN_FILE"]],
    );
  });

  it("reads a file by its header whatever its name, and reads columns by name in any order", () => {
    const header = [...EVENT_HEADER].reverse();
    const row = ["2018/3/1", "", "2018/3/1", "", "", "x", "", "A", ""].reverse();
    const bundle = readExport([
      {
        name: "CalendarUtf-8.csv",
        bytes: csv([
          [...header, "設備"],
          [...row, "会議室"],
        ]),
      },
    ]);
    assert.equal(bundle.events.length, 1);
    assert.equal(bundle.events[0]?.allDay, true);
  });

  it("keeps the first row of a repeated ID and reports the second", () => {
    const row = ["1:1", "t", "", "A", "2018/3/1 10:00", "A", "2018/3/1 10:00", "未着手", "B", "", "", ""];
    const bundle = readExport([{ name: "todo.csv", bytes: csv([TODO_HEADER, row, row]) }]);
    assert.equal(bundle.tasks.length, 1);
    assert.deepEqual(
      bundle.problems.map((p) => [p.kind, p.line]),
      [["DUPLICATE_ROW", 3]],
    );
  });

  it("names the file, line and column of a bad date, status, priority or short row", () => {
    const good = ["1:1", "t", "", "A", "2018/3/1 10:00", "A", "2018/3/1 10:00", "未着手", "B", "", "", ""];
    const cases: [string[], number, RegExp][] = [
      [good.with(4, "2018/2/30 10:00"), 5, /"2018\/2\/30 10:00" is not a date/],
      [good.with(7, "そのうち"), 8, /unknown status/],
      [good.with(8, "Z"), 9, /unknown priority/],
      [good.with(10, "tomorrow"), 11, /not a date/],
      [good.slice(0, 5), 1, /has 5 fields/],
    ];
    for (const [row, field, message] of cases) {
      const error = failure([{ name: "todo.csv", bytes: csv([TODO_HEADER, good, row]) }]);
      // Every field is quoted ("…"), so field N starts where the quotes and commas before it end.
      const column = field === 1 ? 1 : row.slice(0, field - 1).reduce((sum, v) => sum + v.length + 3, 1);
      assert.deepEqual([error.file, error.line, error.column], ["todo.csv", 3, column], row.join(","));
      assert.match(error.message, message);
    }
  });

  it("refuses an event that ends before it starts", () => {
    const row = ["2018/3/2", "10:00:00", "2018/3/2", "09:00:00", "", "x", "", "A", ""];
    const error = failure([{ name: "ev.csv", bytes: csv([EVENT_HEADER, row]) }]);
    assert.equal(error.line, 2);
    assert.match(error.message, /ends before it starts/);
  });

  it("names the line of a broken comment cell inside a multi-line record", () => {
    const row = [
      "1:1",
      "t",
      "one\ntwo",
      "A",
      "2018/3/1 10:00",
      "A",
      "2018/3/1 10:00",
      "未着手",
      "B",
      "",
      "",
      "not a comment",
    ];
    const error = failure([{ name: "todo.csv", bytes: csv([TODO_HEADER, row]) }]);
    assert.deepEqual([error.line, error.column], [3, 64]);
  });

  it("keeps the first of two comments with one number, and reports the second", () => {
    const dash = "-".repeat(50);
    const cell = `${dash}\n1: A 2018/3/1 10:01\n\nsecond\n\n${dash}\n1: A 2018/3/1 10:00\n\nfirst\n\n${dash}`;
    const row = ["1:1", "t", "", "A", "2018/3/1 10:00", "", "", "", "", "", "", cell];
    const bundle = readExport([{ name: "todo.csv", bytes: csv([TODO_HEADER, row]) }]);
    assert.deepEqual(
      bundle.tasks[0]?.comments.map((c) => c.body),
      ["second"],
    );
    assert.deepEqual(
      bundle.problems.map((p) => [p.kind, p.line]),
      [["DUPLICATE_ROW", 8]],
    );
  });

  it("warns of an item at the export's cap of 10,000 comments, not at 9,999", () => {
    const cellOf = (count: number) =>
      Array.from({ length: count }, (_, i) => `${"-".repeat(50)}\n${count - i}: A 2018/3/1 10:00\n\nc\n`).join("") +
      "-".repeat(50);
    const read = (count: number) =>
      readExport([
        {
          name: "todo.csv",
          bytes: csv([TODO_HEADER, ["1:1", "t", "", "A", "2018/3/1 10:00", "", "", "", "", "", "", cellOf(count)]]),
        },
      ]);
    assert.deepEqual(read(9_999).problems, []);
    assert.deepEqual(
      read(10_000).problems.map((p) => p.kind),
      ["COMMENTS_MAY_BE_TRUNCATED"],
    );
  });
});
