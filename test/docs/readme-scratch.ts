// The scratch installation the README test runs the README against: a `kairan serve` process with
// the demo workspace (what `npm start` serves), its data directory, and the README's commands run
// as a reader runs them (bash, curl, `npx kairan` from the checkout, tsx for the TypeScript). A
// block of `npx kairan` lines alone is read by bash, which hands each line's words to `kairan` run
// in this process (a process start through npm costs over a CPU-second); the quick-start's
// `npx kairan serve --help` runs the whole way, bash to npm to bin/kairan.js.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Backend, TestSchema } from "../support/backends.js";
import { createTestSchema } from "../support/backends.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { runKairanHere } from "../support/cli-in-process.js";
import { commandsOf } from "./readme-blocks.js";
import type { Block } from "./readme-blocks.js";
import { CHECKOUT } from "../support/checkout.js";

export const ROOT = CHECKOUT;
/** The address the README's examples use (`npm start`'s default). */
export const README_URL = "http://127.0.0.1:8080";

/** One scratch installation and what the README's blocks registered in it so far. */
export interface Scratch {
  readonly backend: Backend;
  readonly server: ServerProcess;
  /** KAIRAN_DATA_DIR (and KAIRAN_DATABASE_URL) naming the server's database, for `npx kairan`. */
  readonly env: Readonly<Record<string, string>>;
  /** A fresh directory (and, on PostgreSQL, a fresh schema) for commands that make a new installation. */
  fresh(): Promise<{ dir: string; env: Readonly<Record<string, string>> }>;
  /** Values the blocks produced (a consumer key, a token) for the blocks after them. */
  readonly values: Map<string, string>;
  close(): Promise<void>;
}

/** A directory removed at `close`. */
function scratchDir(dirs: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "kairan-readme-"));
  dirs.push(dir);
  return dir;
}

/** Starts `kairan serve` on a free port over an empty database, which it fills with the demo workspace. */
export async function startScratch(backend: Backend): Promise<Scratch> {
  const dirs: string[] = [];
  const schemas: TestSchema[] = [];
  const fresh = async (): Promise<{ dir: string; env: Readonly<Record<string, string>> }> => {
    const dir = scratchDir(dirs);
    if (backend === "sqlite") return { dir, env: { KAIRAN_DATA_DIR: dir } };
    const schema = await createTestSchema();
    schemas.push(schema);
    return { dir, env: { KAIRAN_DATA_DIR: dir, KAIRAN_DATABASE_URL: schema.url } };
  };
  const { env } = await fresh();
  const server = await startServerProcess(["--port", "0", "--log-level", "warn"], env);
  return {
    backend,
    server,
    env,
    fresh,
    values: new Map(),
    async close() {
      await server.stop();
      for (const schema of schemas) await schema.drop();
      dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
    },
  };
}

/** The environment without the developer's KAIRAN_* and AWS_* variables, plus `env`. */
function readerEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const own = Object.entries(process.env).filter(([key]) => !key.startsWith("KAIRAN_") && !key.startsWith("AWS_"));
  return { ...Object.fromEntries(own), ...env };
}

/**
 * Runs `commands` with bash from the checkout, the README's address replaced by the server's and
 * each `[from, to]` of `replace` applied (placeholders the README names: CONSUMER_KEY, ID, paths);
 * asserts exit status 0 and returns standard output. Lines that are all `npx kairan ...` run in
 * this process (kairanLines), unless `asProcess`, or this process works elsewhere than `cwd`.
 */
export async function runShell(
  scratch: Scratch,
  commands: string,
  replace: ReadonlyArray<readonly [string, string]> = [],
  options: { cwd?: string; env?: Readonly<Record<string, string>>; asProcess?: true } = {},
): Promise<string> {
  let text = commands.replaceAll(README_URL, scratch.server.url);
  for (const [from, to] of replace) {
    assert.ok(text.includes(from), `the README's command has ${from}:\n${commands}`);
    text = text.replaceAll(from, to);
  }
  const cwd = options.cwd ?? ROOT;
  const env = readerEnv(options.env ?? scratch.env);
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (!options.asProcess && process.cwd() === cwd && lines.every((line) => /^npx kairan /.test(line))) {
    return kairanLines(text, cwd, env);
  }
  const result = spawnSync("bash", ["-e", "-o", "pipefail", "-c", text], {
    cwd,
    env,
    encoding: "utf8",
    // A guard against a hang, never a measure: a loaded CI machine once took over 60 s for `npx kairan serve --help`.
    timeout: 180_000,
  });
  assert.equal(result.status, 0, `${text}\nexited with ${result.status}:\n${result.stderr}`);
  return result.stdout;
}

/**
 * `npx kairan` lines as bash -e runs them, kairan in this process: bash reads the lines (quotes,
 * comments, expansions) and its `npx` prints each call's words; each runs in turn, the first
 * failure ends the block with its status and standard error.
 */
async function kairanLines(text: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  // Each call: its word count, then its words, each ended by a NUL (a word may hold anything else).
  const npx = `npx() { printf '%s\\0' "$#" "$@"; }\n`;
  const read = spawnSync("bash", ["-e", "-o", "pipefail", "-c", npx + text], { cwd, env, encoding: "utf8" });
  assert.equal(read.status, 0, `${text}\nbash could not read it:\n${read.stderr}`);
  const words = read.stdout.split("\0").slice(0, -1);
  let stdout = "";
  while (words.length > 0) {
    const [command, ...args] = words.splice(0, Number(words.shift()));
    assert.equal(command, "kairan", text);
    const run = await runKairanHere(args, env);
    stdout += run.stdout;
    assert.equal(run.status, 0, `${text}\nkairan ${args.join(" ")} exited with ${run.status}:\n${run.stderr}`);
  }
  return stdout;
}

/** Runs a block's commands (the answers it shows left out). */
export function runBlock(
  scratch: Scratch,
  block: Block,
  replace: ReadonlyArray<readonly [string, string]> = [],
): Promise<string> {
  return runShell(scratch, commandsOf(block), replace);
}

/** The README's examples need curl; a machine without it fails here, saying so, rather than skipping them. */
export function assertCurl(): void {
  const curl = spawnSync("curl", ["--version"], { encoding: "utf8" });
  assert.equal(curl.error, undefined, "the README's examples use curl: install it (apt-get install curl)");
}

/**
 * Runs TypeScript `source` with tsx as its own module (the project's node_modules visible to it).
 * Each line it prints goes to `onLine`, whose answer (if any) is written to its standard input.
 */
export async function runTypeScript(
  source: string,
  onLine: (line: string) => Promise<string | undefined>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "kairan-readme-ts-"));
  try {
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "example.mts"), source);
    const child = spawn(process.execPath, ["--import", "tsx", join(dir, "example.mts")], {
      cwd: ROOT,
      env: readerEnv({}),
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    let pending = "";
    const answers: Promise<void>[] = [];
    let failure: unknown;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      pending += chunk.toString();
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        const answered = onLine(line).then((answer) => void (answer === undefined || child.stdin.write(`${answer}\n`)));
        // A failed check stops the example (it would wait for its answer until the time limit).
        answers.push(answered.catch((error: unknown) => void ((failure = error), child.kill())));
      }
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((done, fail) => {
      child.once("error", fail);
      child.once("close", done);
    });
    await Promise.all(answers);
    if (failure !== undefined) throw failure;
    return { status, stdout, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
