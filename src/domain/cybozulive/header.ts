// Which export a CSV file is, told by its header row (users renamed files; csv-import.md §10),
// with the file-name prefixes of §1.2 only as a tiebreak. Columns are looked up by name, in the
// Japanese or the English interface's wording, so extra or missing optional columns do no harm.
import type { CsvField, CsvRecord } from "./csv.js";
import { ImportFileError } from "./errors.js";

/** The kinds of export file. */
export type ExportKind = "board" | "todo" | "events" | "members";

/** The columns the importer reads, each with the names it goes by (compared without case, spaces or punctuation). */
export const COLUMNS = {
  id: ["ID"],
  title: ["タイトル", "Title", "Subject"],
  body: ["本文", "Body", "Content", "Contents", "Text"],
  author: ["作成者", "Created By", "Creator", "Author"],
  created: ["作成日時", "Created", "Created At", "Date Created", "Created On"],
  updater: ["更新者", "Updated By", "Modified By", "Last Updated By"],
  updated: ["更新日時", "Updated", "Updated At", "Last Updated", "Date Updated", "Modified"],
  comments: ["コメント", "Comment", "Comments"],
  status: ["ステータス", "Status"],
  priority: ["優先度", "Priority"],
  assignees: ["担当者", "Assignees", "Assignee", "Assigned To"],
  due: ["期日", "Due Date", "Due"],
  startDate: ["開始日付", "Start Date"],
  startTime: ["開始時刻", "Start Time"],
  endDate: ["終了日付", "End Date"],
  endTime: ["終了時刻", "End Time"],
  menu: ["予定メニュー", "Event Menu", "Menu", "Label", "Category"],
  memo: ["メモ", "Memo", "Notes", "Description"],
  familyName: ["姓", "Last Name", "Family Name", "Surname"],
  givenName: ["名", "First Name", "Given Name"],
  familyKana: ["よみがな姓", "Last Name Reading", "Family Name Reading", "Reading (Last Name)"],
  givenKana: ["よみがな名", "First Name Reading", "Given Name Reading", "Reading (First Name)"],
  email: ["メールアドレス", "E-mail Address", "Email Address", "E-mail", "Email", "Mail Address"],
} as const satisfies Record<string, readonly string[]>;

/** A column the importer reads. */
export type Column = keyof typeof COLUMNS;

/** The columns each kind must have; the others are optional. */
const REQUIRED: Readonly<Record<ExportKind, readonly Column[]>> = {
  board: ["id", "title", "body", "author", "created"],
  todo: ["id", "title", "body", "author", "created", "status"],
  events: ["startDate", "startTime", "endDate", "endTime", "title", "author"],
  members: ["familyName", "givenName", "email"],
};

/** The file-name prefixes of each kind (Japanese and English interface), the tiebreak. */
const PREFIXES: Readonly<Record<ExportKind, readonly string[]>> = {
  board: ["live_掲示板_", "live_Forum_"],
  todo: ["live_ToDoリスト_", "live_To-Do List_"],
  events: ["live_イベント_", "live_Events_"],
  members: ["live_メンバー名簿_", "live_Member List_"],
};

/** A file's header: its kind and where each known column is. */
export interface Header {
  readonly kind: ExportKind;
  readonly index: Readonly<Partial<Record<Column, number>>>;
}

function normal(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\-_.()（）]/g, "");
}

const LOOKUP = new Map<string, Column>(
  Object.entries(COLUMNS).flatMap(([column, names]) => names.map((name) => [normal(name), column as Column])),
);

/**
 * The kind of a file and its columns, or undefined for a CSV that is none of the export's.
 * The ToDo file has every column of the board's and more, so the most specific kind wins.
 */
export function readHeader(record: CsvRecord, fileName: string): Header | undefined {
  const index: Partial<Record<Column, number>> = {};
  record.fields.forEach((field, position) => {
    const column = LOOKUP.get(normal(field.value));
    if (column !== undefined && index[column] === undefined) index[column] = position;
  });
  const fits = (Object.keys(REQUIRED) as ExportKind[]).filter((kind) =>
    REQUIRED[kind].every((column) => index[column] !== undefined),
  );
  const byName = fits.find((kind) => PREFIXES[kind].some((prefix) => fileName.startsWith(prefix)));
  const kind = byName ?? (fits.includes("todo") ? "todo" : fits[0]);
  return kind === undefined ? undefined : { kind, index };
}

/** One data row read through its file's header. */
export class Row {
  constructor(
    readonly file: string,
    readonly record: CsvRecord,
    private readonly header: Header,
  ) {}

  get line(): number {
    return this.record.line;
  }

  /** The field of a column, or undefined when the file has no such column. */
  field(column: Column): CsvField | undefined {
    const position = this.header.index[column];
    return position === undefined ? undefined : this.record.fields[position];
  }

  /** The trimmed text of an optional column ("" when absent). */
  text(column: Column): string {
    return (this.field(column)?.value ?? "").trim();
  }

  /** The text of a required column. @throws ImportFileError when the row is too short to have it */
  required(column: Column): string {
    const field = this.field(column);
    if (field === undefined)
      throw this.error(
        undefined,
        `the row has ${this.record.fields.length} fields; "${COLUMNS[column][0]}" is missing`,
      );
    return field.value.trim();
  }

  /** An error at a column of this row (at the row's start when the column is absent). */
  error(column: Column | undefined, reason: string): ImportFileError {
    const field = column === undefined ? undefined : this.field(column);
    return new ImportFileError({ file: this.file, line: field?.line ?? this.line, column: field?.column ?? 1 }, reason);
  }
}
