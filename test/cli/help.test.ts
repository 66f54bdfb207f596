// `kairan <command> --help` shows that command's options, not the server's: a site's data (--data,
// --database, stored files) for every command, the link's base for those that mail or print links,
// the mail options for the one that sends mail itself. `kairan serve --help` keeps them all.
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { commandPaths } from "../support/command-paths.js";
import { runKairanHere } from "../support/cli-in-process.js";

/** The option rows of a help text (`  --port N ...`), by option name. */
function optionRows(help: string): Set<string> {
  return new Set([...help.matchAll(/^ {2}(--[a-z][a-z0-9-]*)/gm)].map((match) => match[1]!));
}

async function helpOf(path: readonly string[]): Promise<string> {
  const run = await runKairanHere([...path, "--help"]);
  assert.equal(run.status, 0, `kairan ${path.join(" ")} --help: ${run.stderr}`);
  return run.stdout;
}

/** Options only the server uses: no other command's help lists them. */
const SERVER_ONLY = [
  "--port",
  "--host",
  "--no-demo",
  "--locale",
  "--smtp-inbound-port",
  "--no-rate-limit",
  "--metrics",
];

describe("each command's --help shows its own options", () => {
  let paths: string[][];
  before(async () => {
    paths = await commandPaths();
  });

  it("serve lists the server's options", async () => {
    const rows = optionRows(await helpOf(["serve"]));
    for (const option of [...SERVER_ONLY, "--data", "--database", "--smtp-url", "--public-url"])
      assert.ok(rows.has(option), `kairan serve --help lists ${option}`);
  });

  it("every other command lists where the site's data is, and none of the server's own options", async () => {
    const others = paths.filter((path) => path[0] !== "serve" && path[0] !== "copy");
    assert.ok(others.length >= 40, `commands found: ${others.length}`);
    for (const path of others) {
      const help = await helpOf(path);
      const rows = optionRows(help);
      const shown = `kairan ${path.join(" ")} --help:\n${help}`;
      for (const option of ["--data", "--database", "--blob-store"])
        assert.ok(rows.has(option), `${option} in ${shown}`);
      for (const option of SERVER_ONLY) assert.ok(!rows.has(option), `no ${option} in ${shown}`);
      assert.match(
        help,
        /^The server's other options \(kairan serve --help\) are accepted and change nothing here\.$/m,
      );
    }
  });

  it("the link's base only for commands that mail or print links, the relay only for the test message", async () => {
    const userAdd = optionRows(await helpOf(["user", "add"]));
    assert.ok(!userAdd.has("--public-url") && !userAdd.has("--smtp-url"), "user add neither mails nor prints a link");
    for (const path of [
      ["member", "invite"],
      ["member", "invite-placeholder"],
      ["member", "resend"],
      ["user", "reset-password"],
    ]) {
      const rows = optionRows(await helpOf(path));
      assert.ok(rows.has("--public-url"), `kairan ${path.join(" ")} --help lists --public-url`);
      assert.ok(!rows.has("--smtp-url"), `kairan ${path.join(" ")} queues its mail: the server's relay sends it`);
    }
    const sendTest = optionRows(await helpOf(["mail", "send-test"]));
    for (const option of ["--public-url", "--smtp-url", "--mail-from"]) assert.ok(sendTest.has(option), option);
  });

  it("the options a help leaves out are still accepted, as before", async () => {
    const run = await runKairanHere(["user", "list", "--port", "9999", "--locale", "en", "--no-demo"], {
      KAIRAN_DATA_DIR: "/nonexistent-for-help-test",
    });
    // Accepted: the failure, if any, is about the data directory, never an unknown option.
    assert.doesNotMatch(run.stderr, /Unknown option|unknown option/);
  });
});
