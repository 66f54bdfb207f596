import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseChatText } from "../../../src/domain/cybozulive/chat-text.js";
import { ImportFileError } from "../../../src/domain/cybozulive/errors.js";

const EQ = "=".repeat(80);
const DASH = "-".repeat(80);
const iso = (wall: number) => new Date(wall).toISOString().slice(0, 16);
const read = (lines: readonly string[], eol = "\r\n") => parseChatText(lines.join(eol) + eol, "room.txt");
const posts = (lines: readonly string[], eol?: string) =>
  read(lines, eol)?.posts.map((p) => [p.number, p.author, iso(p.wall), p.body, p.line]);

describe("parseChatText: a chat room's text export", () => {
  const room = [
    "雑談",
    EQ,
    "タイトル: 雑談",
    "",
    "気軽にどうぞ",
    "二行目",
    EQ,
    "1: 鈴木 花子",
    "2018/3/1 (木) 18:00",
    "",
    "一行目",
    "二行目",
    DASH,
    "2: Taro Sato",
    "2018/3/1 18:05",
    "",
    "了解",
    DASH,
  ];

  it("reads the title, the description and the posts, with their lines", () => {
    const read1 = read(room);
    assert.deepEqual([read1?.title, read1?.description, read1?.line], ["雑談", "気軽にどうぞ\n二行目", 3]);
    assert.deepEqual(posts(room), [
      [1, "鈴木 花子", "2018-03-01T18:00", "一行目\n二行目", 8],
      [2, "Taro Sato", "2018-03-01T18:05", "了解", 14],
    ]);
  });

  it("reads LF, CR and CRLF alike, and a file that does not end with a separator", () => {
    assert.deepEqual(posts(room, "\n"), posts(room));
    assert.deepEqual(posts(room, "\r"), posts(room));
    assert.deepEqual(posts(room.slice(0, -1)), posts(room));
  });

  it("keeps a line of exactly 80 dashes in a message when no post follows it, and a longer one always", () => {
    const lines = ["x", EQ, "Title: t", "", EQ, "1: A", "2018/3/1 10:00", "", "a", DASH, "b", `${DASH}-`, "c", DASH];
    assert.deepEqual(posts(lines), [[1, "A", "2018-03-01T10:00", `a\n${DASH}\nb\n${DASH}-\nc`, 6]]);
  });

  it("reads English labels and dates, and the date at the end of the name's line", () => {
    const lines = ["Lunch", EQ, "Title: Lunch", "", EQ, "1: Alice Smith", "Thu, Jul 12, 2018 11:50", "", "Hi", DASH];
    assert.deepEqual(read(lines)?.title, "Lunch");
    assert.deepEqual(posts(lines), [[1, "Alice Smith", "2018-07-12T11:50", "Hi", 6]]);
    const same = ["t", EQ, "Title: t", "", EQ, "3: Bob Jones 2018/3/1 (木) 9:05", "", "yo", DASH];
    assert.deepEqual(posts(same), [[3, "Bob Jones", "2018-03-01T09:05", "yo", 6]]);
  });

  it("reads the room from the lines before the first separator when a post follows it at once", () => {
    const lines = ["something", "", "タイトル: 部屋", "", "説明", DASH, "1: A", "2018/3/1 10:00", "", "a", DASH];
    const parsed = read(lines);
    assert.deepEqual([parsed?.title, parsed?.description, parsed?.posts.length], ["部屋", "説明", 1]);
  });

  it("takes the title from the file's name when the file names none", () => {
    const parsed = parseChatText([EQ, "1: A", "2018/3/1 10:00", "", "a", DASH].join("\n"), "My room.txt");
    assert.deepEqual([parsed?.title, parsed?.line, parsed?.posts.length], ["My room", 1, 1]);
    const zipped = parseChatText(
      [EQ, "1: A", "2018/3/1 10:00", "", "a", DASH].join("\n"),
      "export.zip:rooms/My room.txt",
    );
    assert.equal(zipped?.title, "My room", "without the zip and folder it is in");
  });

  it("keeps a post without text (its file is not in the export) with an empty body", () => {
    const lines = ["t", EQ, "Title: t", "", EQ, "1: A", "2018/3/1 10:00", "", "", DASH];
    assert.deepEqual(posts(lines), [[1, "A", "2018-03-01T10:00", "", 6]]);
  });

  it("is no chat export without a separator line", () => {
    assert.equal(parseChatText("just some notes\r\n", "notes.txt"), undefined);
    assert.equal(parseChatText(`${"=".repeat(79)}\n`, "notes.txt"), undefined, "79 is not 80");
  });

  it("names the line of a post whose date is missing or no date", () => {
    for (const date of ["", "yesterday", "2018/2/30 10:00"]) {
      const lines = ["t", EQ, "Title: t", "", EQ, "1: A", "2018/3/1 10:00", "", "a", DASH, "2: B", date, "", "b", DASH];
      assert.throws(
        () => read(lines),
        (error: unknown) =>
          error instanceof ImportFileError && error.file === "room.txt" && error.line === 12 && error.column === 1,
        date,
      );
    }
  });
});
