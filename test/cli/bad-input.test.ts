// Every command, given bad input, prints one line and exits 2: never a stack trace, never a
// silent success. The commands and subcommands are read from the help texts, so a command
// added later is covered by the generic cases without touching this file. The cases run in this
// process (runCli, test/support/cli-in-process.ts: hundreds of process starts cost minutes of
// CPU); the last suite runs one case of each way of failing as a real process.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { runKairanAsync } from "../support/cli.js";
import { type CliRunner, runKairanHere } from "../support/cli-in-process.js";
import { commandPaths } from "../support/command-paths.js";
import { tempDirs } from "../support/temp-dirs.js";

const tempDir = tempDirs("kairan-bad-");

/** Runs `args` with a data directory and asserts the one-line failure. */
async function assertRefused(
  args: readonly string[],
  data: string,
  message?: RegExp,
  runner: CliRunner = runKairanHere,
): Promise<void> {
  const run = await runner(args, { KAIRAN_DATA_DIR: data, KAIRAN_DEMO: "0", KAIRAN_LOG_LEVEL: "silent" });
  const shown = `kairan ${args.join(" ")}:\n${run.stderr}`;
  assert.equal(run.status, 2, `exit status 2 for ${shown}\n(stdout: ${run.stdout.slice(0, 300)})`);
  assert.doesNotMatch(run.stderr, /^\s+at /m, `no stack trace for ${shown}`);
  assert.doesNotMatch(run.stderr, /\b[A-Z][A-Za-z]*Error\b[:\s{]/, `no error class dump for ${shown}`);
  const lines = run.stderr.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 1, `exactly one line on standard error for ${shown}`);
  assert.match(lines[0]!, /^kairan: \S/);
  if (message) assert.match(lines[0]!, message, shown);
}

/** Runs cases one after another (in this process, where a warning is told to the run that raised it). */
async function each<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  for (const item of items) await work(item);
}

describe("every command refuses bad input in one line, exit status 2", () => {
  let paths: string[][];
  let fileInTheWay: string;
  before(async () => {
    paths = await commandPaths();
    fileInTheWay = join(tempDir(), "a-file");
    writeFileSync(fileInTheWay, "not a directory");
  });

  it("finds the commands and their subcommands in the help texts", () => {
    const shown = paths.map((path) => path.join(" "));
    for (const expected of ["serve", "seed", "user add", "member set-notify", "app remove", "token revoke", "copy"])
      assert.ok(shown.includes(expected), `${expected} in ${shown.join(", ")}`);
  });

  it("an unknown option or a stray argument, to every command and subcommand", async () => {
    const cases = paths.flatMap((path) => [
      { args: [...path, "--no-such-option"], message: /no-such-option/ },
      { args: [...path, "stray-1", "stray-2"], message: /stray-1|stray-2|positional|exactly one/ },
    ]);
    await each(cases, ({ args, message }) => assertRefused(args, tempDir(), message));
  });

  it("an option without its value, a malformed setting, a data directory that is a file, an unreachable database", async () => {
    // The settings are read by one piece of code: each command (its first subcommand) once.
    const firsts = paths.filter((path, index) => paths.findIndex((other) => other[0] === path[0]) === index);
    const cases = firsts.flatMap((path) => [
      [...path, "--data"],
      [...path, "--port", "eighty"],
      [...path, "--data", fileInTheWay],
      [...path, "--database", "postgres://postgres@127.0.0.1:1/kairan"],
    ]);
    await each(cases, (args) => assertRefused(args, tempDir()));
  });
});

describe("bad values, unknown users, groups and items: one line, exit status 2", () => {
  let data: string;
  before(async () => {
    data = tempDir();
    const seeded = await runKairanHere(["seed", "seeds/demo.json", "--data", data]);
    assert.equal(seeded.status, 0, seeded.stderr);
  });

  const cases: Array<[string[], RegExp]> = [
    [["seed"], /exactly one FILE/],
    [["seed", "/no/such/seed.json"], /cannot read \(ENOENT\)/],
    [["seed", "seeds/demo.json"], /alice@example\.com is already a user here.*nothing was loaded/],
    [["user", "add", "--name", "A", "--email", "not-an-address", "--password", "pw"], /email/i],
    [["user", "add", "--name", "A", "--email", "alice@example.com", "--password", "pw"], /exists already/],
    [["user", "add", "--email", "x@example.com"], /user add: --name is required/],
    [["group", "add", "--name", "G", "--manager", "nobody@example.com"], /nobody@example\.com/],
    [["member", "add", "--group", "99:99", "--user", "alice@example.com"], /group/i],
    [["member", "add", "--group", "one", "--user", "alice@example.com"], /--group must be a group id/],
    [["member", "remove", "--group", "1:1", "--user", "nobody@example.com"], /nobody@example\.com/],
    [["member", "set-notify", "--group", "1:1", "--user", "bob@example.com", "--value", "maybe"], /true or false/],
    [
      ["member", "invite", "--group", "1:1", "--email", "c@example.com", "--label", "C", "--expires", "soon"],
      /expires/,
    ],
    [["task", "add", "--group", "1:1", "--title", "T", "--author", "alice@example.com", "--due", "someday"], /due/],
    [["task", "add", "--group", "1:1", "--title", "T", "--author", "alice@example.com", "--priority", "Z"], /priority/],
    [["task", "complete", "--task", "GROUP,1:1,TASK,99:99"], /./],
    [["task", "move", "--task", "GROUP,1:1,TASK,1:1", "--folder", "nowhere"], /--folder/],
    [["file", "add", "--group", "1:1", "--author", "alice@example.com", "--path", "/no/such/file"], /--path/],
    [
      [
        "file",
        "add-version",
        "--file",
        "GROUP,1:1,CABINET,99:99",
        "--author",
        "alice@example.com",
        "--path",
        "seeds/demo.json",
      ],
      /./,
    ],
    [["file", "trash", "--file", "not-an-id"], /--file/],
    [
      [
        "file",
        "add",
        "--group",
        "1:1",
        "--author",
        "alice@example.com",
        "--path",
        "seeds/demo.json",
        "--comment",
        "x".repeat(1001),
      ],
      /change note is longer than 1000 characters/,
    ],
    [["app", "add", "--name", "X", "--level", "everything"], /--level must be one of/],
    [["app", "remove", "no-such-key"], /no application has the key/],
    [["app", "bogus"], /unknown action/],
    [["token", "add", "--user", "nobody@example.com", "--app", "demo-key"], /nobody@example\.com/],
    [["token", "revoke", "not-a-number"], /./],
    [["token", "revoke", "99999"], /./],
    [["copy", "--from", "/no/such/dir", "--to", "postgres://postgres@127.0.0.1:1/kairan"], /./],
    [["copy", "--from", "/tmp"], /--to/],
    [["copy", "--from", "/tmp", "--to", "mysql://db/kairan"], /postgres/],
    [["generate", "--users", "0"], /--users must be an integer/],
    [["generate"], /not empty/],
    [["serve", "--shutdown-grace", "soon"], /--shutdown-grace/],
    [["frobnicate"], /unknown command "frobnicate"/],
  ];
  for (const [args, message] of cases) {
    it(`kairan ${args.join(" ")}`, () => assertRefused(args, data, message));
  }
});

// What only a process shows: the status it ends with, all it writes to standard error (a warning
// of Node's, a stack trace from the bin), its start from bin/kairan.js. One case of each way the
// command line fails (src/cli/main.ts: its usage errors, explainFailure's kinds, an unknown
// command), each the same case as above, as `node bin/kairan.js`.
describe("the same refusals from a real process: one line, exit status 2", () => {
  let data: string;
  let fileInTheWay: string;
  before(async () => {
    data = tempDir();
    const seeded = await runKairanHere(["seed", "seeds/demo.json", "--data", data]);
    assert.equal(seeded.status, 0, seeded.stderr);
    fileInTheWay = join(tempDir(), "a-file");
    writeFileSync(fileInTheWay, "not a directory");
  });

  it("an unknown command, option or action; a bad setting; a data directory that is a file; an unreachable database", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["frobnicate"], /unknown command "frobnicate"/],
      [["user", "add", "--no-such-option"], /no-such-option/],
      [["app", "bogus"], /unknown action/],
      [["serve", "--port", "eighty"], /--port/],
      [["user", "list", "--data", fileInTheWay], /./],
      [["serve", "--data", fileInTheWay], /is a file, not a directory/],
      [["seed", "seeds/demo.json", "--database", "postgres://postgres@127.0.0.1:1/kairan"], /./],
    ];
    for (const [args, message] of cases) await assertRefused(args, tempDir(), message, runKairanAsync);
  });

  it("a bad seed file, a rule of the domain, an unknown key", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["seed", "/no/such/seed.json"], /cannot read \(ENOENT\)/],
      [["user", "add", "--name", "A", "--email", "alice@example.com", "--password", "pw"], /exists already/],
      [["app", "remove", "no-such-key"], /no application has the key/],
    ];
    for (const [args, message] of cases) await assertRefused(args, data, message, runKairanAsync);
  });
});
