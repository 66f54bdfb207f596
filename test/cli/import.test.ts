import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { runCli } from "../../src/cli/main.js";
import { cleanEnv } from "../support/clean-env.js";
import { kairan } from "./support.js";

const FIXTURES = resolve(import.meta.dirname, "../fixtures/cybozulive");
const JA = join(FIXTURES, "ja-cp932");
const EN = join(FIXTURES, "en-utf8");
const NONE = { topics: 0, comments: 0, tasks: 0, events: 0, accounts: 0, members: 0, chatRooms: 0, chatMessages: 0 };

describe("kairan import cybozulive", () => {
  let data: string;
  let scratch: string;
  before(async () => {
    data = mkdtempSync(join(tmpdir(), "kairan-cli-import-"));
    scratch = mkdtempSync(join(tmpdir(), "kairan-cli-import-files-"));
    await kairan(data, "user", "add", "--name", "Alice", "--email", "alice@example.com", "--password", "pw");
    await kairan(data, "group", "add", "--name", "Team", "--manager", "alice@example.com");
  });
  after(() => {
    rmSync(data, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("imports a folder into a new group by name, prints the counts and problems, and makes nothing the second time", async () => {
    const first = await kairan(data, "import", "cybozulive", JA, "--group-name", "移行");
    assert.equal(first.status, 0, first.stderr);
    const report = first.json() as {
      group: { id: number; created: boolean };
      created: object;
      problems: { kind: string }[];
    };
    assert.equal(report.group.created, true);
    assert.deepEqual(report.created, {
      topics: 3,
      comments: 5,
      tasks: 4,
      events: 4,
      accounts: 5,
      members: 5,
      chatRooms: 1,
      chatMessages: 4,
    });
    assert.ok(report.problems.some((p) => p.kind === "WITHDRAWN_PERSON"));
    const second = await kairan(data, "import", "cybozulive", JA, "--group-name", "移行");
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual((second.json() as { created: object }).created, NONE);
  });

  it("with --dry-run into an existing group (--group) reports the counts and writes nothing", async () => {
    const dry = await kairan(data, "import", "cybozulive", EN, "--group", "1:1", "--tz", "UTC", "--dry-run");
    assert.equal(dry.status, 0, dry.stderr);
    // Alice matches her account by address (and manages the group already); Bob becomes a placeholder.
    const expected = {
      ...NONE,
      topics: 2,
      comments: 3,
      tasks: 2,
      events: 2,
      accounts: 1,
      members: 1,
      chatRooms: 1,
      chatMessages: 3,
    };
    assert.deepEqual((dry.json() as { created: object }).created, expected);
    assert.deepEqual((await kairan(data, "import", "cybozulive", EN, "--group", "1:1", "--dry-run")).json(), {
      ...(dry.json() as object),
      timeZone: "Asia/Tokyo",
    });
    const users = (await kairan(data, "user", "list", "--json")).stdout;
    assert.doesNotMatch(users, /bob@example\.com/, "no placeholder was made");
  });

  it("imports a zip made on Japanese Windows as the same folder: a second run makes nothing", async () => {
    const zip = join(FIXTURES, "zips", "export-ja-cp932-names.zip");
    const first = await kairan(data, "import", "cybozulive", zip, "--group-name", "移行 (zip)");
    assert.equal(first.status, 0, first.stderr);
    const report = first.json() as { created: Record<string, number>; files: { name: string }[] };
    assert.deepEqual(
      [report.created.topics, report.created.comments, report.created.chatRooms, report.created.chatMessages],
      [3, 5, 1, 4],
    );
    assert.ok(report.files.some((f) => f.name === "export-ja-cp932-names.zip:サイボウズLive/live_掲示板_20180305.csv"));
    const second = await kairan(data, "import", "cybozulive", zip, "--group-name", "移行 (zip)");
    assert.deepEqual((second.json() as { created: object }).created, NONE);
  });

  it("refuses bad input with one line and status 2, changing nothing", async () => {
    cpSync(EN, join(scratch, "broken"), { recursive: true });
    const board = join(scratch, "broken", "live_Forum_20180713.csv");
    writeFileSync(board, readFileSync(board, "utf8").replace('"Schedule"', '"Sched"ule"'));
    writeFileSync(join(scratch, "export.zip"), "PK");
    // An empty zip: only the end of its central directory.
    writeFileSync(join(scratch, "empty.zip"), Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]));
    const cases: [string[], RegExp][] = [
      [[EN, "--group", "1:1", "--group-name", "x"], /give exactly one of --group ID and --group-name NAME/],
      [[EN], /give exactly one of --group ID and --group-name NAME/],
      [[EN, "--group", "1:1", "--tz", "Mars/Olympus"], /--tz must be an IANA time zone/],
      [["--group", "1:1"], /the export's folder or zip file \(DIR\) is required/],
      [[join(scratch, "missing"), "--group", "1:1"], /missing: no such file or directory/],
      [
        [join(scratch, "export.zip"), "--group", "1:1"],
        /^kairan: export\.zip: not a zip file that can be read \(.+\)$/,
      ],
      [[join(scratch, "empty.zip"), "--group", "1:1"], /^kairan: empty\.zip: no \.csv or \.txt files in the zip$/],
      [[join(EN, "live_Forum_20180713.csv"), "--group", "1:1"], /is neither a folder nor a \.zip file/],
      [[EN, "--group", "1:99"], /There is no group 1:99\. \(GROUP_NOT_FOUND\)/],
      [
        [join(scratch, "broken"), "--group-name", "Broken"],
        /^kairan: live_Forum_20180713\.csv, line 14, column 16: text after the closing quote of a field$/,
      ],
    ];
    const before = (await kairan(data, "group", "list")).stdout;
    for (const [args, message] of cases) {
      const run = await kairan(data, "import", "cybozulive", ...args);
      assert.equal(run.status, 2, args.join(" "));
      assert.match(run.stderr.trim(), message);
      assert.equal(run.stderr.trim().split("\n").length, 1, "one line");
      assert.equal(run.stdout, "");
    }
    assert.equal((await kairan(data, "group", "list")).stdout, before);
  });

  it("shows its progress on standard error when it is a terminal, and nothing when it is not", async () => {
    const run = async (isTTY: boolean) => {
      const out = { stdout: "", stderr: "", raw: "" };
      const status = await runCli(
        ["import", "cybozulive", EN, "--group-name", `Progress ${isTTY}`, "--data", data, "--log-level", "silent"],
        {
          stdout: { write: (text: string) => (out.stdout += text) },
          stderr: { write: (text: string) => (out.stderr += text) },
          rawStderr: { write: (text: string) => (out.raw += text), isTTY },
          env: { ...cleanEnv(), KAIRAN_DEMO: "0" },
        },
      );
      assert.equal(status, 0, out.stderr);
      assert.equal(out.stderr, "");
      JSON.parse(out.stdout);
      return out.raw;
    };
    const terminal = await run(true);
    assert.match(terminal, /^\rkairan import: /);
    assert.ok(
      terminal.endsWith("\rkairan import: 5/5 files read, 13 rows planned, 13/13 rows written\u001b[K\n"),
      JSON.stringify(terminal),
    );
    assert.equal(await run(false), "");
  });
});
