// The コメント cell of the board, ToDo and event files: every comment of the item in one cell,
// newest first, each as a line of 50 dashes, a header "N: <name> <date>", a blank line and the
// body (csv-import.md §3.5). A body may itself hold a line of 50 dashes, so a dash line only
// separates comments when a header follows it or when it ends the cell. The header is anchored
// on its trailing date, so the name is everything between "N: " and the date: one-token names
// such as "(サービス退会者)" and names with spaces read alike.
import { ImportFileError } from "./errors.js";
import { parseWallTime } from "./dates.js";

/** One comment as the cell shows it. */
export interface CellComment {
  /** The comment's number within its item (counting up from the oldest; gaps after deletions). */
  readonly number: number;
  readonly author: string;
  /** Wall-clock time of the comment, as if UTC. */
  readonly wall: number;
  /** Text with LF line breaks; may be empty (a comment that only carried a file). */
  readonly body: string;
  readonly file: string;
  /** The file line of the comment's header. */
  readonly line: number;
}

const DASHES = /^-{50}\s*$/;
const NUMERIC_DATE = String.raw`\d{4}/\d{1,2}/\d{1,2}(?:\s*\([^)\s]{1,4}\))?\s+\d{1,2}:\d{2}(?::\d{2})?`;
const ENGLISH_DATE = String.raw`(?:[A-Za-z]{3},\s*)?[A-Za-z]{3}\s+\d{1,2},\s*\d{4}\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp][Mm])?`;
/** A comment's header line: number, name and trailing date (also read on a chat post's line). */
export const COMMENT_HEADER = new RegExp(String.raw`^(\d+):\s+(.+?)\s+(${NUMERIC_DATE}|${ENGLISH_DATE})\s*$`);

/** Where the cell starts in its file, for the errors. */
export interface CellPlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The comments of a cell, oldest first.
 * @throws ImportFileError text that is not a comment, a header whose date is no date
 */
export function parseCommentCell(cell: string, place: CellPlace): CellComment[] {
  if (cell.trim() === "") return [];
  const lines = cell.split("\n");
  const isHeader = (index: number) => COMMENT_HEADER.test(lines[index] ?? "");
  const lastText = lastNonEmpty(lines);
  const separators: number[] = [];
  lines.forEach((text, index) => {
    if (DASHES.test(text) && (isHeader(index + 1) || index === lastText)) separators.push(index);
  });
  const fileLine = (index: number) => place.line + index;
  const first = lines.findIndex((text) => text.trim() !== "");
  if (separators[0] !== first || !isHeader(first + 1))
    throw new ImportFileError(
      { file: place.file, line: fileLine(first), column: first === 0 ? place.column : 1 },
      "the comment cell does not start with a line of 50 dashes and a comment header (N: name date)",
    );
  const comments: CellComment[] = [];
  for (const [k, start] of separators.entries()) {
    if (start === lastText) break;
    const end = separators[k + 1] ?? lines.length;
    comments.push(readComment(lines, start + 1, end, { ...place, line: fileLine(start + 1) }));
  }
  // The cell lists newest first; the numbers count up from the oldest.
  return comments.sort((a, b) => a.number - b.number);
}

function readComment(lines: readonly string[], header: number, end: number, place: CellPlace): CellComment {
  const match = COMMENT_HEADER.exec(lines[header] ?? "");
  const when = parseWallTime(match?.[3] ?? "");
  if (!match || !when)
    throw new ImportFileError(
      { ...place, column: 1 },
      `the comment header "${(lines[header] ?? "").slice(0, 60)}" has no valid date`,
    );
  const body = lines.slice(header + 1, end);
  // One blank line follows the header; blank lines before the next separator are layout, not text.
  if (body[0]?.trim() === "") body.shift();
  while (body.length > 0 && body[body.length - 1]?.trim() === "") body.pop();
  return {
    number: Number(match[1]),
    author: match[2] ?? "",
    wall: when.wall,
    body: body.join("\n"),
    file: place.file,
    line: place.line,
  };
}

function lastNonEmpty(lines: readonly string[]): number {
  for (let index = lines.length - 1; index >= 0; index--) if ((lines[index] ?? "").trim() !== "") return index;
  return -1;
}
