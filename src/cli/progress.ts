// A long command's progress on a terminal: one line on standard error, rewritten in place, at most
// a few times a second. Nothing at all when standard error is no terminal, so that scripts and the
// JSON on standard output stay clean.
import type { ImportProgress } from "../services/import/cybozulive.js";
import type { TextSink } from "./io.js";

/** Shown at most this often (the last state is always shown at the end). */
export const PROGRESS_INTERVAL_MS = 250;

/** Takes the latest progress; `done` shows the last state and ends the line. */
export interface ProgressWriter {
  readonly update: (progress: ImportProgress) => void;
  readonly done: () => void;
}

const NOTHING: ProgressWriter = { update() {}, done() {} };
/** Back to the start of the line, and clear what an earlier, longer line left. */
const REWRITE = "\r";
const CLEAR_TO_END = "\u001b[K";

/** The import's progress as one line: files read, rows planned, rows written out of all. */
export function describeProgress(progress: ImportProgress): string {
  const parts = [`${progress.filesRead}/${progress.files} files read`];
  if (progress.rowsPlanned > 0) parts.push(`${progress.rowsPlanned} rows planned`);
  if (progress.rowsWritten > 0) parts.push(`${progress.rowsWritten}/${progress.rowsPlanned} rows written`);
  return `kairan import: ${parts.join(", ")}`;
}

/** A progress line on `stream` when `isTTY`, else nothing; `now` is the clock of the interval. */
export function progressWriter(
  stream: TextSink,
  isTTY: boolean,
  options: { now?: () => number; intervalMs?: number } = {},
): ProgressWriter {
  if (!isTTY) return NOTHING;
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  let latest: ImportProgress | undefined;
  let shown: ImportProgress | undefined;
  let shownAt = -Infinity;
  const show = (progress: ImportProgress) => {
    stream.write(`${REWRITE}${describeProgress(progress)}${CLEAR_TO_END}`);
    shown = progress;
  };
  return {
    update(progress) {
      latest = progress;
      const at = now();
      if (at - shownAt < interval) return;
      shownAt = at;
      show(progress);
    },
    done() {
      if (latest === undefined) return;
      if (latest !== shown) show(latest);
      stream.write("\n");
      latest = undefined;
    },
  };
}
