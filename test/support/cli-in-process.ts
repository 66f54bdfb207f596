// The command line run inside the test process: src/cli/main.ts's runCli, with the streams and
// environment the `kairan` executable would give it, captured. A command costs milliseconds here
// instead of a process start (about half a CPU-second each): suites run most of their cases this
// way and keep a few real process runs (runKairan in test/support/cli.ts) for what only a process
// shows: the exit status the process ends with, its whole standard error, the bin's start.
import { Readable } from "node:stream";
import { setImmediate } from "node:timers/promises";
import { runCli } from "../../src/cli/main.js";
import { cleanEnv } from "./clean-env.js";

/** What a command run in this process left behind. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Standard output parsed as JSON. */
  json<T = unknown>(): T;
}

/** A way to run a command: runKairanHere below, or runKairanAsync (test/support/cli.ts), a process. */
export type CliRunner = (
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  input?: string,
) => Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }>;

/**
 * Runs `kairan ARGS` in this process with `env` over the environment runKairan gives a process
 * (the developer's KAIRAN_* and AWS_* left out) and `input` as standard input. Node's warnings
 * raised meanwhile are added to standard error as a process would print them, so that "one line
 * on standard error" still fails on one (a warning is raised once per process: the first run that
 * meets it shows it).
 */
export async function runKairanHere(args: readonly string[], env: NodeJS.ProcessEnv = {}, input = ""): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => void warnings.push(warning);
  process.on("warning", onWarning);
  let status: number;
  try {
    status = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from(input === "" ? [] : [Buffer.from(input)]),
      env: { ...cleanEnv(), ...env },
    });
    // Warnings are emitted on a later tick than the one that raised them.
    await setImmediate();
  } finally {
    process.off("warning", onWarning);
  }
  for (const warning of warnings) stderr += `(node:${process.pid}) ${warning.name}: ${warning.message}\n`;
  return { status, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

/** `kairan serve` running in this process, and what it printed so far. */
export interface ServeHere {
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Gives it `signal` as its process would, and resolves with the exit status it asks for. */
  stop(signal?: NodeJS.Signals): Promise<number>;
}

/**
 * Runs `kairan serve ARGS` in this process (its log, `--log-level`, goes to this process's standard
 * error): for a suite that needs a server over a data directory or database the command line made,
 * not a process's start or end (startServerProcess in test/support/cli.ts). @throws when it does
 * not start
 */
export async function startServeHere(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServeHere> {
  let stdout = "";
  let stderr = "";
  let signalled: ((signal: NodeJS.Signals) => void) | undefined;
  let exited: (code: number) => void = () => {};
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const status = await runCli(["serve", ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { ...cleanEnv(), ...env },
    process: { onSignal: (listener) => void (signalled = listener), exit: (code) => exited(code) },
  });
  const url = /^listening on (http:\/\/\S+)$/m.exec(stdout)?.[1];
  if (status !== 0 || url === undefined || signalled === undefined)
    throw new Error(`kairan serve ${args.join(" ")} did not start (status ${status}):\n${stderr}`);
  const onSignal = signalled;
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    stop(signal = "SIGTERM") {
      onSignal(signal);
      return exit;
    },
  };
}
