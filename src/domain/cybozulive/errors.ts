// The one error of reading an export: a file that cannot be read as the export's format. It names
// the file and where in it (1-based line and column of the decoded text), so that an operator can
// open the file and fix it; nothing is imported when one is thrown.

/** A place in an export file: the file's name, and 1-based line and column (0 when unknown). */
export interface FilePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** An export file that breaks the format (an unclosed quote, a date that is no date, a missing column). */
export class ImportFileError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  constructor(place: FilePlace, reason: string) {
    super(`${describePlace(place)}: ${reason}`);
    this.name = "ImportFileError";
    this.file = place.file;
    this.line = place.line;
    this.column = place.column;
  }
}

/** "file, line 3, column 5" (the parts that are known). */
export function describePlace(place: FilePlace): string {
  const parts = [place.file];
  if (place.line > 0) parts.push(`line ${place.line}`);
  if (place.column > 0) parts.push(`column ${place.column}`);
  return parts.join(", ");
}
