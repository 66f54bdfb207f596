// The commands and subcommands of `kairan`, read from the help texts: a command added later is
// found without a list to keep up to date.
import assert from "node:assert/strict";
import { runKairanHere } from "./cli-in-process.js";

/** Every command path the help texts list: `serve`, `user add`, `app list`, ... */
export async function commandPaths(): Promise<string[][]> {
  const top = await runKairanHere(["--help"]);
  assert.equal(top.status, 0, top.stderr);
  const names = [...top.stdout.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((match) => match[1]!);
  assert.ok(names.length >= 10, `commands listed in kairan --help:\n${top.stdout}`);
  const paths: string[][] = [];
  for (const name of names) {
    const help = await runKairanHere([name, "--help"]);
    assert.equal(help.status, 0, `kairan ${name} --help: ${help.stderr}`);
    const grouped = new RegExp(`kairan ${name} <([a-z|-]+)>`).exec(help.stdout)?.[1]?.split("|");
    const actions = [...help.stdout.matchAll(new RegExp(`^\\s*(?:Usage: )?kairan ${name} ([a-z][a-z-]*)`, "gm"))];
    const subs = grouped ?? actions.map((match) => match[1]!);
    if (subs.length === 0) paths.push([name]);
    for (const sub of new Set(subs)) paths.push([name, sub]);
  }
  return paths;
}
