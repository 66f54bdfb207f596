// `kairan reindex`: rebuilds the search index, reading plain-text files' bytes again.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import SQLite from "better-sqlite3";
import { parseSearchQuery } from "../../src/domain/search.js";
import { openStore } from "../../src/store/open.js";
import { tempDirs } from "../support/temp-dirs.js";
import { kairan } from "./support.js";

const tempDir = tempDirs("kairan-reindex-");

// engines: sqlite only, because the command line is under test here (arguments, output, exit codes)
// over the --data directory it defaults to; the services and queries it drives run on both engines
// in test/http, test/web and test/store.
it("rebuilds the index: a file's lost text is found again, every other kind still is", async () => {
  const data = tempDir();
  await kairan(data, "user", "add", "--name", "Ann", "--email", "ann@example.com", "--password", "pw");
  await kairan(data, "group", "add", "--name", "Ops", "--manager", "ann@example.com");
  const path = join(data, "runbook.txt");
  writeFileSync(path, "障害対応の手順: restart the frobnicator");
  assert.equal(
    (await kairan(data, "file", "add", "--group", "1:1", "--author", "ann@example.com", "--path", path)).status,
    0,
  );
  await kairan(
    data,
    "task",
    "add",
    "--group",
    "1:1",
    "--author",
    "ann@example.com",
    "--title",
    "rotate the frobnicator keys",
  );
  // An index that lost the file's text (as after restoring a database without it).
  const db = new SQLite(join(data, "kairan.sqlite"));
  db.prepare("update file_search_texts set body = ''").run();
  db.close();
  const hits = async () => {
    const store = await openStore({ kind: "sqlite", file: join(data, "kairan.sqlite"), synchronous: "normal" });
    try {
      const filter = {
        userId: 1,
        query: parseSearchQuery("frobnicator"),
        kinds: ["TASK", "CABINET"] as const,
        groupId: null,
      };
      return (await store.read((tx) => tx.search.find(filter, { offset: 0, limit: 10 }))).hits
        .map((hit) => hit.kind)
        .sort();
    } finally {
      await store.close();
    }
  };
  assert.deepEqual(await hits(), ["TASK"]);
  const run = await kairan(data, "reindex");
  assert.equal(run.status, 0, run.stderr);
  const report = run.json<Record<string, number>>();
  assert.equal(report.files, 1);
  assert.equal(report.textFiles, 1);
  assert.equal(report.unreadable, 0);
  assert.ok(report.databaseBytesAfter! > 0 && report.milliseconds! >= 0);
  assert.deepEqual(await hits(), ["CABINET", "TASK"]);
});

it("fails like every command: one line, exit status 2", async () => {
  const run = await kairan(tempDir(), "reindex", "extra");
  assert.equal(run.status, 2);
  assert.match(run.stderr, /^kairan: reindex: kairan reindex takes no positional arguments/);
  assert.equal(run.stderr.trim().split("\n").length, 1);
});
