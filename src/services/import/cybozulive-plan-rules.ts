// What planning every kind of record shares: where a record is, running a rule of the domain on
// it, and the note under a text whose attachments the export lacks.
import type { ImportProblem } from "../../domain/cybozulive/bundle.js";
import { ImportFileError } from "../../domain/cybozulive/errors.js";
import { DomainError } from "../../domain/errors.js";

/** A place in a file, without a column. */
export interface Place {
  readonly file: string;
  readonly line: number;
}

const FILE_PLACEHOLDER = /\[file:\d+\]/;
/** Said under a text whose `[file:N]` placeholders name attachments the export does not hold. */
export const MISSING_ATTACHMENTS_NOTE =
  "※ [file:N] の添付ファイルはエクスポートに含まれていないため、取り込まれていません。 (The attachments marked [file:N] were not in the export and were not imported.)";

/** What planning a record needs: the zone, the problems so far, and the people met. */
export interface PlanContext {
  readonly zone: string;
  readonly problems: ImportProblem[];
  readonly person: (name: string, place: Place) => string;
}

/** Runs a rule of the domain, its error made one of the file at the record's place. */
export function checked<T>(place: { file: string; line: number }, rule: () => T): T {
  try {
    return rule();
  } catch (error) {
    if (error instanceof DomainError)
      throw new ImportFileError({ ...place, column: 0 }, `${error.message} (${error.code})`);
    throw error;
  }
}

/** The text with the note about missing attachments when it names any, reported once per item. */
export function withNote(text: string, place: { file: string; line: number }, context: PlanContext): string {
  if (!FILE_PLACEHOLDER.test(text)) return text;
  context.problems.push({
    ...place,
    column: 0,
    kind: "ATTACHMENTS_NOT_IN_EXPORT",
    message: "the text names attachments ([file:N]) the export does not hold; upload them separately",
  });
  return `${text}\n\n${MISSING_ATTACHMENTS_NOTE}`;
}

/** A record's place as a problem's, without a column. */
export function at(record: { file: string; line: number }) {
  return { file: record.file, line: record.line, column: 0 };
}
