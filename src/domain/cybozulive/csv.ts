// An RFC 4180 reader that knows where each field starts: fields in double quotes may hold commas,
// doubled quotes and line breaks (CRLF, LF or CR); empty lines between records are skipped (the
// original tools ignored them too). Line breaks inside fields come out as LF.
// Not csv-parse: it tells a record's line, not where each field starts, and an import problem
// names the line and the column of the field it is about (a multi-line cell moves both).
import { ImportFileError } from "./errors.js";

/** One field and where its first character (its opening quote, when quoted) stands. */
export interface CsvField {
  readonly value: string;
  readonly line: number;
  readonly column: number;
}

/** One record: its fields and the line it starts on. */
export interface CsvRecord {
  readonly line: number;
  readonly fields: readonly CsvField[];
}

/** A cursor over the text that counts lines and columns (1-based) as it goes. */
class Cursor {
  index = 0;
  line = 1;
  column = 1;
  constructor(readonly text: string) {}
  get char(): string | undefined {
    return this.text[this.index];
  }
  get atLineBreak(): boolean {
    return this.char === "\n" || this.char === "\r";
  }
  /** Moves past one character, or past a whole CRLF. */
  advance(): void {
    const char = this.text[this.index];
    this.index += char === "\r" && this.text[this.index + 1] === "\n" ? 2 : 1;
    if (char === "\n" || char === "\r") {
      this.line += 1;
      this.column = 1;
    } else this.column += 1;
  }
}

/**
 * Reads every record of `text`.
 * @throws ImportFileError a quote left open, a quote inside an unquoted field, text after a closing quote
 */
export function readCsv(text: string, file: string): CsvRecord[] {
  const cursor = new Cursor(text);
  const records: CsvRecord[] = [];
  while (cursor.char !== undefined) {
    if (cursor.atLineBreak) {
      cursor.advance();
      continue;
    }
    records.push(readRecord(cursor, file));
  }
  return records;
}

function readRecord(cursor: Cursor, file: string): CsvRecord {
  const line = cursor.line;
  const fields: CsvField[] = [];
  for (;;) {
    fields.push(readField(cursor, file));
    if (cursor.char === ",") {
      cursor.advance();
      continue;
    }
    if (cursor.char !== undefined) cursor.advance();
    return { line, fields };
  }
}

function readField(cursor: Cursor, file: string): CsvField {
  const start = { line: cursor.line, column: cursor.column };
  if (cursor.char === '"') return readQuoted(cursor, file, start);
  let value = "";
  while (cursor.char !== undefined && cursor.char !== "," && !cursor.atLineBreak) {
    if (cursor.char === '"')
      throw new ImportFileError({ file, ...at(cursor) }, "a double quote inside a field that does not start with one");
    value += cursor.char;
    cursor.advance();
  }
  return { value, ...start };
}

function readQuoted(cursor: Cursor, file: string, start: { line: number; column: number }): CsvField {
  cursor.advance();
  let value = "";
  for (;;) {
    const char = cursor.char;
    if (char === undefined)
      throw new ImportFileError({ file, ...start }, "a quoted field is not closed before the end of the file");
    if (char === '"') {
      cursor.advance();
      if (cursor.char !== '"') break;
      value += '"';
      cursor.advance();
    } else if (cursor.atLineBreak) {
      value += "\n";
      cursor.advance();
    } else {
      value += char;
      cursor.advance();
    }
  }
  if (cursor.char !== undefined && cursor.char !== "," && !cursor.atLineBreak)
    throw new ImportFileError({ file, ...at(cursor) }, "text after the closing quote of a field");
  return { value, ...start };
}

function at(cursor: Cursor): { line: number; column: number } {
  return { line: cursor.line, column: cursor.column };
}
