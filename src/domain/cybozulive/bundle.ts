// A whole export: every file of a folder, each decoded, read as CSV and told apart by its header.
// What can be read is returned with the problems found on the way (files skipped, repeated IDs,
// comments without text, possibly truncated comment lists); what breaks the format throws. A
// `.txt` file is a chat room's text export (chat-text.ts).
import { type ChatPost, type ChatRoomRecord, parseChatText } from "./chat-text.js";
import { type CellComment } from "./comment-cell.js";
import { readCsv } from "./csv.js";
import { type ExportEncoding, decodeExport } from "./decode.js";
import { type EventRecord, readEvent } from "./events.js";
import { type ExportKind, Row, readHeader } from "./header.js";
import { type ItemRecord, type TaskRecord, readItem, readTask } from "./items.js";
import { type MemberRecord, readMember } from "./members.js";

/** The export kept at most this many comments per item (csv-import.md §1.1): at the cap, older ones may be missing. */
export const EXPORT_COMMENT_CAP = 10_000;

/** Something the import reports without stopping: where, a stable code, and a sentence. */
export interface ImportProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** A stable name of the problem (docs/operations.md lists them). */
  readonly kind: string;
  readonly message: string;
}

/** One file as read. */
export interface ReadFile {
  readonly name: string;
  readonly kind: ExportKind | "chat" | "unknown";
  readonly encoding: ExportEncoding;
  readonly rows: number;
}

/** Everything read from an export. */
export interface ExportBundle {
  readonly files: readonly ReadFile[];
  readonly topics: readonly ItemRecord[];
  readonly tasks: readonly TaskRecord[];
  readonly events: readonly EventRecord[];
  readonly members: readonly MemberRecord[];
  /** Chat rooms, one per text file, their posts without those that had no text. */
  readonly chatRooms: readonly ChatRoomRecord[];
  readonly problems: readonly ImportProblem[];
}

/** A file of the export: its name (for messages and the tiebreak) and bytes. */
export interface ExportFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/**
 * Reads every file of an export. Files are read in name order, so the result does not depend on
 * the order a folder lists them in. `onFileRead` is told how many are read after each one.
 * @throws ImportFileError the first file that breaks the format
 */
export function readExport(files: readonly ExportFile[], onFileRead?: (filesRead: number) => void): ExportBundle {
  const problems: ImportProblem[] = [];
  const read: ReadFile[] = [];
  const topics: ItemRecord[] = [];
  const tasks: TaskRecord[] = [];
  const events: EventRecord[] = [];
  const members: MemberRecord[] = [];
  const chatRooms: ChatRoomRecord[] = [];
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const [index, file] of sorted.entries()) {
    if (index > 0) onFileRead?.(index);
    const { text, encoding } = decodeExport(file.bytes);
    const problem = (line: number, code: string, message: string) =>
      problems.push({ file: file.name, line, column: 0, kind: code, message });
    if (text.includes("\uFFFD"))
      problem(0, "UNDECODABLE_CHARACTERS", "some bytes are neither UTF-8 nor Windows-31J and read as U+FFFD");
    if (/\.txt$/i.test(file.name)) {
      const room = parseChatText(text, file.name);
      if (room === undefined) {
        read.push({ name: file.name, kind: "unknown", encoding, rows: 0 });
        problem(1, "UNKNOWN_FILE", "a text file without the separator lines of a chat room's export; skipped");
        continue;
      }
      read.push({ name: file.name, kind: "chat", encoding, rows: room.posts.length });
      chatRooms.push(withText(room, problems));
      continue;
    }
    const [head, ...records] = readCsv(text, file.name);
    const header = head === undefined ? undefined : readHeader(head, file.name);
    if (header === undefined) {
      read.push({ name: file.name, kind: "unknown", encoding, rows: 0 });
      problem(
        1,
        "UNKNOWN_FILE",
        "the header row is not one of the export's files (board, ToDo, events, members); skipped",
      );
      continue;
    }
    read.push({ name: file.name, kind: header.kind, encoding, rows: records.length });
    const rows = records.map((record) => new Row(file.name, record, header));
    if (header.kind === "board") topics.push(...rows.map(readItem));
    if (header.kind === "todo") tasks.push(...rows.map(readTask));
    if (header.kind === "events") events.push(...rows.map(readEvent));
    if (header.kind === "members") members.push(...rows.map(readMember));
  }
  onFileRead?.(sorted.length);
  return {
    files: read,
    topics: checkItems(unique(topics, "topic", problems), problems),
    tasks: checkItems(unique(tasks, "task", problems), problems),
    events: checkItems(uniqueEvents(events, problems), problems),
    members,
    chatRooms,
    problems,
  };
}

/** A room without the posts that have no text (they only carried a file), each reported. */
function withText(room: ChatRoomRecord, problems: ImportProblem[]): ChatRoomRecord {
  const kept = room.posts.filter((post: ChatPost) => {
    if (post.body.trim() !== "") return true;
    problems.push(
      at(post, "EMPTY_COMMENT", `message ${post.number} has no text (its file is not in the export); skipped`),
    );
    return false;
  });
  return kept.length === room.posts.length ? room : { ...room, posts: kept };
}

/** Keeps the first row of each ID (a file given twice, or two exports of one board). */
function unique<T extends ItemRecord>(items: readonly T[], what: string, problems: ImportProblem[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (!seen.has(item.sourceId)) return seen.add(item.sourceId);
    problems.push(
      at(item, "DUPLICATE_ROW", `a ${what} with ID ${item.sourceId} was read already; this row is skipped`),
    );
    return false;
  });
}

/** Events alike in start, title and creator are one event given twice: kept once. */
function uniqueEvents(events: readonly EventRecord[], problems: ImportProblem[]): EventRecord[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (!seen.has(event.key)) return seen.add(event.key);
    problems.push(
      at(event, "DUPLICATE_ROW", "an event with the same start, title and creator was read already; skipped"),
    );
    return false;
  });
}

/**
 * Drops comments without text (they only carried a file) and a second comment of a number the
 * item has already (numbers key a second import), and warns of lists the export may have cut.
 */
function checkItems<T extends { comments: readonly CellComment[]; file: string; line: number }>(
  items: readonly T[],
  problems: ImportProblem[],
): T[] {
  return items.map((item) => {
    const numbers = new Set<number>();
    const kept = item.comments.filter((comment) => {
      if (comment.body.trim() === "") {
        const message = `comment ${comment.number} has no text (its file is not in the export); skipped`;
        problems.push(at(comment, "EMPTY_COMMENT", message));
        return false;
      }
      if (numbers.has(comment.number)) {
        problems.push(at(comment, "DUPLICATE_ROW", `a second comment ${comment.number} of the item; skipped`));
        return false;
      }
      return numbers.add(comment.number);
    });
    if (item.comments.length >= EXPORT_COMMENT_CAP) {
      const message = `${item.comments.length} comments: the export kept only the newest ${EXPORT_COMMENT_CAP}`;
      problems.push(at(item, "COMMENTS_MAY_BE_TRUNCATED", message));
    }
    return kept.length === item.comments.length ? item : { ...item, comments: kept };
  });
}

function at(place: { file: string; line: number }, code: string, message: string): ImportProblem {
  return { file: place.file, line: place.line, column: 0, kind: code, message };
}
