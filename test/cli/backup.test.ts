// `kairan backup FILE` while a real `kairan serve` takes writes at full speed: the copy passes
// SQLite's integrity check and holds every write acknowledged before the backup began; writes
// sent after it ended are not in it (a snapshot, not a later copy of the live file); and the
// restored file serves again. Refusals: an existing FILE, PostgreSQL, no database.
import assert from "node:assert/strict";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { openStore } from "../../src/store/open.js";
import { runKairanAsync, startServerProcess } from "../support/cli.js";
import { runKairanHere, startServeHere } from "../support/cli-in-process.js";
import { eventually } from "../support/eventually.js";
import { request } from "../support/http.js";
import { type Ack, missingAcks, startWriters } from "../support/writers.js";

/** The demo workspace (loaded at the first start): group 1:1, both users members, level Z tokens. */
const DEMO = { groupId: "1:1", tokens: ["alice-demo-token", "bob-demo-token"] };
const WRITERS = 6;

// engines: sqlite only, because `kairan backup` copies a SQLite file (on PostgreSQL it refuses,
// which this suite checks; PostgreSQL has pg_dump).
describe("kairan backup", () => {
  let place: string;
  before(() => {
    place = mkdtempSync(join(tmpdir(), "kairan-backup-"));
  });
  after(() => rmSync(place, { recursive: true, force: true }));

  it(
    "copies the database under write load: every write acknowledged before it, none sent after it",
    { timeout: 300_000 },
    async (t) => {
      const data = join(place, "data");
      const file = join(place, "kairan-backup.sqlite");
      const server = await startServerProcess([
        "--port",
        "0",
        "--data",
        data,
        "--log-level",
        "warn",
        "--no-rate-limit",
      ]);
      let before: Ack[];
      let sentAfter: Ack[];
      try {
        const load = startWriters(server.url, { ...DEMO, writers: WRITERS });
        await eventually(() => load.acks.length >= 60 || load.refusals.length > 0, "the writers are writing", 120_000);
        before = [...load.acks];
        // A process of its own, as an operator runs it beside the server (in this process, its
        // one step would stop the writers, which run here, for as long as it takes).
        const backup = await runKairanAsync(["backup", file, "--data", data]);
        // Each writer has at most one request in flight: beyond the next WRITERS acks, every
        // acknowledged write was sent after the backup had ended.
        const ended = load.acks.length + WRITERS;
        await eventually(
          () => load.acks.length >= ended + 30 || load.refusals.length > 0,
          "writes after the backup",
          120_000,
        );
        await load.stop();
        sentAfter = load.acks.slice(ended).filter((ack) => ack.kind !== "like");
        assert.deepEqual(load.refusals, []);
        assert.equal(backup.status, 0, backup.stderr);
        const printed = JSON.parse(backup.stdout) as { backup: string; integrity: string; pages: number };
        assert.equal(printed.backup, file);
        assert.equal(printed.integrity, "ok");
        assert.ok(printed.pages > 0);
      } finally {
        assert.equal(await server.stop(), 0);
      }
      assert.deepEqual(
        readdirSync(place).filter((name) => name.includes(".partial")),
        [],
        "no partial file is left",
      );
      const copy = new SQLite(file, { readonly: true });
      try {
        assert.equal(copy.pragma("integrity_check", { simple: true }), "ok");
      } finally {
        copy.close();
      }

      // Restoring: the copy becomes the database file of a new data directory, and serves.
      const restored = join(place, "restored");
      const again = await startRestored(file, restored);
      try {
        assert.equal((await request(`${again.url}/readyz`)).status, 200);
        assert.ok(before.length >= 60);
        assert.deepEqual(await missingAcks(again.url, before, DEMO.tokens[0]!), [], "every write acknowledged before");
        assert.ok(sentAfter.length >= 20);
        t.diagnostic(`${before.length} writes acknowledged before the backup, ${sentAfter.length} sent after it`);
        const absent = await missingAcks(again.url, sentAfter, DEMO.tokens[0]!);
        assert.deepEqual(
          sentAfter.filter((ack) => !absent.includes(ack)),
          [],
          "no write sent after the backup ended is in it",
        );
      } finally {
        assert.equal(await again.stop(), 0);
      }
    },
  );

  it("gives a copy the current code opens and migrates", async () => {
    const file = join(place, "kairan-backup.sqlite");
    assert.ok(existsSync(file), "the first test wrote it");
    mkdirSync(join(place, "opened"));
    copyFileSync(file, join(place, "opened", "kairan.sqlite"));
    const opened = await openStore({ kind: "sqlite", file: join(place, "opened", "kairan.sqlite") });
    try {
      await opened.migrate();
      assert.equal(await opened.isEmpty(), false);
    } finally {
      await opened.close();
    }
  });

  it("refuses an existing file, PostgreSQL, a missing database and a wrong argument count, changing nothing", async () => {
    const data = join(place, "data");
    const taken = join(place, "taken.sqlite");
    writeFileSync(taken, "keep me");
    const cases: Array<[string[], RegExp]> = [
      [["backup", taken, "--data", data], /^kairan: .*taken\.sqlite exists already; give a new file name$/],
      [
        ["backup", join(place, "pg.sqlite"), "--database", "postgres://kairan@127.0.0.1:1/kairan"],
        /^kairan: kairan backup copies SQLite databases; back up PostgreSQL with pg_dump$/,
      ],
      [
        ["backup", join(place, "none.sqlite"), "--data", join(place, "empty")],
        /^kairan: there is no database at .*kairan\.sqlite \(check --data\)$/,
      ],
      [
        ["backup", join(place, "no-such-dir", "b.sqlite"), "--data", data],
        /^kairan: the directory .*no-such-dir does not exist$/,
      ],
      [
        ["backup", "--data", data],
        /^kairan: backup: give exactly one backup file \(got 0 arguments\); run 'kairan backup --help' for its options$/,
      ],
      [
        ["backup", "a", "b", "--data", data],
        /^kairan: backup: give exactly one backup file \(got 2 arguments\); run 'kairan backup --help' for its options$/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runKairanHere(args);
      assert.equal(run.status, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr.split("\n")[0] ?? "", message);
      assert.equal(run.stdout, "");
    }
    assert.ok(!existsSync(join(place, "empty", "kairan.sqlite")), "no database was created");
    assert.ok(!existsSync(join(place, "pg.sqlite")));
    assert.equal(existsSync(taken) && readFileSync(taken, "utf8"), "keep me");
  });
});

/** Puts the backup where a data directory's database goes, and serves it (in this process: it only reads). */
async function startRestored(file: string, dataDir: string) {
  mkdirSync(dataDir, { recursive: true });
  copyFileSync(file, join(dataDir, "kairan.sqlite"));
  return startServeHere(["--port", "0", "--data", dataDir, "--log-level", "warn", "--no-rate-limit"]);
}
