import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCommentCell } from "../../../src/domain/cybozulive/comment-cell.js";
import { parseTimeOfDay, parseWallTime } from "../../../src/domain/cybozulive/dates.js";
import { ImportFileError } from "../../../src/domain/cybozulive/errors.js";

const DASH = "-".repeat(50);
const place = { file: "board.csv", line: 10, column: 3 };
const parse = (lines: readonly string[]) => parseCommentCell(lines.join("\n"), place);

describe("parseWallTime", () => {
  it("reads the export's date shapes", () => {
    const cases: [string, string, boolean][] = [
      ["2018/3/1 13:48", "2018-03-01T13:48:00", true],
      ["2018/2/28 (水) 09:44", "2018-02-28T09:44:00", true],
      ["2018/12/31 2:11", "2018-12-31T02:11:00", true],
      ["2019/4/16 06:11:12", "2019-04-16T06:11:12", true],
      ["2018/3/1", "2018-03-01T00:00:00", false],
      ["Fri, Jul 13, 2018 8:36", "2018-07-13T08:36:00", true],
      ["Jul 13, 2018 8:36 PM", "2018-07-13T20:36:00", true],
      ["Jul 13, 2018", "2018-07-13T00:00:00", false],
    ];
    for (const [text, iso, hasTime] of cases)
      assert.deepEqual(parseWallTime(text), { wall: Date.parse(`${iso}Z`), hasTime }, text);
  });

  it("refuses what is no day or time", () => {
    for (const text of ["", "2018/2/30", "2018/13/1", "2018/3/1 24:00", "2018/3/1 10:60", "18/3/1", "Foo 1, 2018"])
      assert.equal(parseWallTime(text), undefined, text);
  });

  it("reads times of day with and without seconds, 23:59:59 the last", () => {
    assert.equal(parseTimeOfDay("13:10:00"), (13 * 60 + 10) * 60_000);
    assert.equal(parseTimeOfDay("9:05"), (9 * 60 + 5) * 60_000);
    assert.equal(parseTimeOfDay("23:59:59"), 86_399_000);
    assert.equal(parseTimeOfDay("24:00:00"), undefined);
  });
});

describe("parseCommentCell", () => {
  it("reads an empty cell as no comments", () => {
    assert.deepEqual(parseCommentCell("", place), []);
    assert.deepEqual(parseCommentCell(" \n ", place), []);
  });

  it("returns the comments oldest first with authors, times, bodies and file lines", () => {
    const comments = parse([
      DASH,
      "3: Sato Taro 2018/2/28 (水) 09:44",
      "",
      "line one",
      "line two",
      "",
      DASH,
      "2: (サービス退会者) 2018/2/28 (水) 9:40",
      "",
      "by someone who left",
      "",
      DASH,
      "1: 鈴木 花子 Fri, Jul 13, 2018 8:36",
      "",
      "english date",
      "",
      DASH,
    ]);
    assert.deepEqual(
      comments.map((c) => [c.number, c.author, new Date(c.wall).toISOString(), c.body, c.line]),
      [
        [1, "鈴木 花子", "2018-07-13T08:36:00.000Z", "english date", 22],
        [2, "(サービス退会者)", "2018-02-28T09:40:00.000Z", "by someone who left", 17],
        [3, "Sato Taro", "2018-02-28T09:44:00.000Z", "line one\nline two", 11],
      ],
    );
  });

  it("keeps a line of 50 dashes that no header follows inside the body", () => {
    const [comment] = parse([DASH, "1: A B 2018/3/1 10:00", "", "before", DASH, "after", "", DASH]);
    assert.equal(comment?.body, `before\n${DASH}\nafter`);
  });

  it("keeps a body whose dash line stands right before the closing one", () => {
    const [comment] = parse([DASH, "1: A B 2018/3/1 10:00", "", "text", DASH, DASH]);
    assert.equal(comment?.body, `text\n${DASH}`);
  });

  it("reads an empty body, and a last comment the cell does not close", () => {
    const comments = parse([DASH, "2: A 2018/3/1 10:01", "", "open end", DASH, "1: B 2018/3/1 10:00", "", "", DASH]);
    assert.deepEqual(
      comments.map((c) => [c.number, c.body]),
      [
        [1, ""],
        [2, "open end"],
      ],
    );
    assert.deepEqual(
      parse([DASH, "1: A 2018/3/1 10:00", "", "no closing line"]).map((c) => c.body),
      ["no closing line"],
    );
  });

  it("refuses a cell that does not start with a separator and a header, naming the line", () => {
    for (const [lines, line, column] of [
      [["just text"], 10, 3],
      [["", "text", DASH], 11, 1],
      [[DASH, "no header here", "", DASH], 10, 3],
      [[DASH.slice(1), "1: A 2018/3/1 10:00", "", "x", DASH], 10, 3],
    ] as const) {
      assert.throws(
        () => parse(lines),
        (error: unknown) => error instanceof ImportFileError && error.line === line && error.column === column,
        lines.join("|"),
      );
    }
  });

  it("refuses a header whose date does not exist", () => {
    assert.throws(
      () => parse([DASH, "1: A 2018/2/30 10:00", "", "x", DASH]),
      (error: unknown) => error instanceof ImportFileError && error.line === 11 && /no valid date/.test(error.message),
    );
  });
});
