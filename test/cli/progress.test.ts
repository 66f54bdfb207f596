import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PROGRESS_INTERVAL_MS, describeProgress, progressWriter } from "../../src/cli/progress.js";

const at = (filesRead: number, rowsPlanned = 0, rowsWritten = 0) => ({ filesRead, files: 4, rowsPlanned, rowsWritten });

/** A writer on a captured stream, with a clock the test moves. */
function capture(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  const writer = progressWriter({ write: (text: string) => written.push(text) }, isTTY, { now: () => now });
  return { written, writer, tick: (ms: number) => (now += ms) };
}

describe("progressWriter: an import's progress on a terminal", () => {
  it("says files read, rows planned, rows written out of all", () => {
    assert.equal(describeProgress(at(2)), "kairan import: 2/4 files read");
    assert.equal(describeProgress(at(4, 1200)), "kairan import: 4/4 files read, 1200 rows planned");
    assert.equal(
      describeProgress(at(4, 1200, 300)),
      "kairan import: 4/4 files read, 1200 rows planned, 300/1200 rows written",
    );
  });

  it("rewrites one line, at most once an interval, and ends it with the last state", () => {
    const { written, writer, tick } = capture(true);
    writer.update(at(1));
    tick(PROGRESS_INTERVAL_MS - 1);
    writer.update(at(2));
    writer.update(at(3));
    assert.deepEqual(written, ["\rkairan import: 1/4 files read\u001b[K"], "not again within the interval");
    tick(1);
    writer.update(at(4, 10));
    assert.equal(written.length, 2, "again once the interval has passed");
    writer.update(at(4, 10, 5));
    writer.done();
    assert.deepEqual(written.slice(2), [
      "\rkairan import: 4/4 files read, 10 rows planned, 5/10 rows written\u001b[K",
      "\n",
    ]);
    assert.ok(
      written.every((text) => !text.slice(0, -1).includes("\n")),
      "one line, rewritten in place",
    );
  });

  it("does not repeat the state it showed last, and shows nothing when nothing happened", () => {
    const shown = capture(true);
    shown.writer.update(at(4, 10, 10));
    shown.writer.done();
    assert.deepEqual(shown.written, [
      "\rkairan import: 4/4 files read, 10 rows planned, 10/10 rows written\u001b[K",
      "\n",
    ]);
    const idle = capture(true);
    idle.writer.done();
    assert.deepEqual(idle.written, []);
  });

  it("writes nothing at all when standard error is no terminal", () => {
    const { written, writer, tick } = capture(false);
    writer.update(at(1));
    tick(PROGRESS_INTERVAL_MS * 10);
    writer.update(at(4, 10, 10));
    writer.done();
    assert.deepEqual(written, []);
  });
});
