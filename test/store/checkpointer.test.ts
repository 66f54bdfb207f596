// SQLite's background checkpointer (store/sqlite/checkpointer.ts), as `kairan serve` runs it: the
// serving connection no longer copies the WAL into the database file at its commits (only past a
// far larger backstop), a thread of its own does, a moment after the writes.
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import type { Store } from "../../src/store/store.js";
import { TestClock } from "../support/clock.js";
import { eventually } from "../support/eventually.js";
import { Factories } from "../support/factories.js";

/** The titles of the topics in the database file alone, without its WAL: what checkpoints copied. */
function checkpointedTitles(file: string, scratch: string): string[] {
  const copy = join(scratch, `copy-${Math.random().toString(36).slice(2)}.sqlite`);
  try {
    copyFileSync(file, copy);
    const database = new SQLite(copy);
    try {
      return (database.prepare("select title from topics").all() as { title: string }[]).map((row) => row.title);
    } finally {
      database.close();
    }
  } catch {
    // Copied in the middle of a checkpoint's writes: the next look sees it whole.
    return [];
  } finally {
    rmSync(copy, { force: true });
    rmSync(`${copy}-wal`, { force: true });
    rmSync(`${copy}-shm`, { force: true });
  }
}

// engines: sqlite only, because WAL checkpoints are SQLite's (src/store/sqlite/checkpointer.ts).
describe("SQLite's background checkpointer", () => {
  let dir: string;
  let file: string;
  let store: Store;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "kairan-checkpointer-"));
    file = join(dir, "kairan.sqlite");
    store = openSqliteStore(file, "normal", { backgroundCheckpoints: true });
    await store.migrate();
  });
  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Without the thread, a small write would stay in the WAL until 40 MB of them had piled up.
  it("copies a committed write into the database file by itself, with no later commit", async () => {
    const clock = new TestClock();
    const f = new Factories(store, clock);
    const alice = await f.user();
    const group = await f.group([alice]);
    await f.topic(group, alice, { title: "copied by the thread" });
    await eventually(
      () => checkpointedTitles(file, dir).includes("copied by the thread"),
      "the topic in the database file itself",
    );
  });
});
