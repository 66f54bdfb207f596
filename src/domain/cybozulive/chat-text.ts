// A chat room's text export (`.txt`, one room per file; csv-import.md §3.6): blocks separated by
// lines of exactly 80 `=` or 80 `-`. Before the first separator comes a line the original tools
// skip; then the room's block (a `<label>: <title>` line such as `タイトル: …` or `Title: …`, a
// blank line, the description); then one block per post: `N: <name>`, its date on the next line,
// a blank line and the text. A message may itself hold a line of 80 dashes, so a separator only
// ends a block when a post header follows it or nothing but blank lines and separators does; the
// file need not end with one. The parser is pure; its errors name the file's line.
import { COMMENT_HEADER } from "./comment-cell.js";
import { parseWallTime } from "./dates.js";
import { ImportFileError } from "./errors.js";

/** One post of a room as the file shows it. */
export interface ChatPost {
  /** The post's number in the room, as written. */
  readonly number: number;
  readonly author: string;
  /** Wall-clock time of the post, as if UTC. */
  readonly wall: number;
  /** Text with LF line breaks; may be empty (a post that only carried a file). */
  readonly body: string;
  readonly file: string;
  /** The file line of the post's `N: name` line. */
  readonly line: number;
}

/** A room read from its text file. */
export interface ChatRoomRecord {
  /** The room's title; the file's name without `.txt` when the file names none. */
  readonly title: string;
  readonly description: string;
  /** The posts in the file's order. */
  readonly posts: readonly ChatPost[];
  readonly file: string;
  /** The file line of the title (1 when it came from the file name). */
  readonly line: number;
}

/** The separators, compared with the whole line: a longer line of dashes is text. */
const SEPARATORS: ReadonlySet<string> = new Set(["=".repeat(80), "-".repeat(80)]);
/** A post's first line: its number and its author's display name (all the rest of the line). */
const POST_HEADER = /^(\d+)\s*[:：]\s*(\S.*?)\s*$/;
/** The room's title line of the known interfaces, and any other `label: text` line. */
const KNOWN_TITLE =
  /^\s*(?:タイトル|題名|件名|テーマ|ルーム名|チャット名|Title|Subject|Theme|Room name|Chat name)\s*[:：]\s*(.*?)\s*$/i;
const ANY_LABEL = /^\s*[^:：]{1,20}[:：]\s*(.*?)\s*$/;

/**
 * Reads a room's text export; undefined when the text has no separator line at all (a `.txt` that
 * is no chat export).
 * @throws ImportFileError a post whose `N: name` line is followed by no date
 */
export function parseChatText(text: string, file: string): ChatRoomRecord | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const isSeparator = (index: number) => SEPARATORS.has(lines[index] ?? "");
  const first = lines.findIndex((_, index) => isSeparator(index));
  if (first === -1) return undefined;
  const nextText = (from: number) => {
    let index = from;
    while (index < lines.length && (isSeparator(index) || (lines[index] ?? "").trim() === "")) index++;
    return index;
  };
  const startsPost = (index: number) => {
    const next = nextText(index + 1);
    return next === lines.length || POST_HEADER.test(lines[next] ?? "");
  };
  // The separators that end a block: the first, and those a post or the end of the file follows.
  const ends = lines.flatMap((_, index) =>
    isSeparator(index) && (index === first || startsPost(index)) ? [index] : [],
  );
  const blocks = ends.map((start, k) => ({ start: start + 1, end: ends[k + 1] ?? lines.length }));
  const [roomBlock, ...rest] = blocks;
  // Without a block of its own before the first post, the room's lines are those before the first separator.
  const roomIsPreamble = roomBlock === undefined || POST_HEADER.test(lines[nextText(roomBlock.start)] ?? "");
  const room = roomIsPreamble ? { start: 0, end: first } : roomBlock;
  const postBlocks = roomIsPreamble ? blocks : rest;
  const head = readRoom(lines, room, roomIsPreamble ? undefined : { start: 0, end: first }, file);
  const posts = postBlocks
    .filter((block) => nextText(block.start) < block.end)
    .map((block) => readPost(lines, { start: nextText(block.start), end: block.end }, file));
  return { ...head, posts, file };
}

interface Span {
  readonly start: number;
  readonly end: number;
}

function readRoom(
  lines: readonly string[],
  span: Span,
  preamble: Span | undefined,
  file: string,
): { title: string; description: string; line: number } {
  const within = lines.slice(span.start, span.end);
  let at = within.findIndex((line) => KNOWN_TITLE.test(line));
  let title = at === -1 ? undefined : KNOWN_TITLE.exec(within[at] ?? "")?.[1];
  if (title === undefined) {
    at = within.findIndex((line) => line.trim() !== "");
    const line = within[at] ?? "";
    // In its own block the first line is the title line, whatever its label; the skipped first line has none.
    title = (preamble !== undefined ? ANY_LABEL.exec(line)?.[1] : undefined) ?? line.trim();
  }
  const description = at === -1 ? [] : within.slice(at + 1);
  if (description[0]?.trim() === "") description.shift();
  if (title === "" && preamble !== undefined)
    title = lines.slice(preamble.start, preamble.end).find((line) => line.trim() !== "") ?? "";
  // The file's own name, without the folder or zip it is in ("export.zip:rooms/Lunch.txt").
  const fileTitle = file.replace(/^.*[/:]/, "").replace(/\.txt$/i, "");
  if (title.trim() === "") return { title: fileTitle, description: trimmed(description), line: 1 };
  return { title: title.trim(), description: trimmed(description), line: span.start + at + 1 };
}

function readPost(lines: readonly string[], span: Span, file: string): ChatPost {
  const header = lines[span.start] ?? "";
  const match = POST_HEADER.exec(header);
  const dateLine = lines[span.start + 1] ?? "";
  const when = span.start + 1 < span.end ? parseWallTime(dateLine) : undefined;
  let author = match?.[2] ?? "";
  let wall = when?.wall;
  let textFrom = span.start + 2;
  if (wall === undefined) {
    // As some tools read it: the date at the end of the name's line ("1: Taro Sato 2018/3/1 10:00").
    const sameLine = COMMENT_HEADER.exec(header);
    const date = sameLine ? parseWallTime(sameLine[3] ?? "") : undefined;
    if (!sameLine || !date)
      throw new ImportFileError(
        { file, line: span.start + 2, column: 1 },
        `the line after the chat post "${header.slice(0, 60)}" must be its date (2018/3/1 10:00), not "${dateLine.slice(0, 40)}"`,
      );
    author = sameLine[2] ?? "";
    wall = date.wall;
    textFrom = span.start + 1;
  }
  const body = lines.slice(textFrom, span.end);
  if (body[0]?.trim() === "") body.shift();
  return { number: Number(match?.[1]), author, wall, body: trimmed(body), file, line: span.start + 1 };
}

/** The lines joined, without the blank lines before and after them (layout, not text). */
function trimmed(lines: readonly string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] ?? "").trim() === "") start++;
  while (end > start && (lines[end - 1] ?? "").trim() === "") end--;
  return lines.slice(start, end).join("\n");
}
