import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cleanEnv } from "./clean-env.js";

/** The command line as users run it: `node bin/kairan.js` over the compiled dist/ (npm test builds it for the files that run it). */
export const KAIRAN_BIN = fileURLToPath(new URL("../../bin/kairan.js", import.meta.url));

/** Runs a kairan command to completion. */
export function runKairan(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  options: { uid?: number; bin?: string } = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [options.bin ?? KAIRAN_BIN, ...args], {
    encoding: "utf8",
    env: { ...cleanEnv(), ...env },
    timeout: 60_000,
    // As another user (`uid`), in that user's group too, from a directory it may enter.
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid, cwd: "/" }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs a kairan command to completion without blocking this process: needed when the command
 * talks to a server running inside the test process (s3rver), which a blocked loop cannot serve,
 * and when such a server's connections must not time out meanwhile.
 */
export async function runKairanAsync(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  input = "",
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [KAIRAN_BIN, ...args], { env: { ...cleanEnv(), ...env }, timeout: 60_000 });
  // Its standard input: `input`, then closed (a command that reads it gets an end, never a wait).
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  return { status, stdout, stderr };
}

/** A running `kairan serve` process and what it printed so far. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  stdout(): string;
  stderr(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `kairan serve` and waits for its `listening on` line. */
export async function startServerProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [KAIRAN_BIN, "serve", ...args], { env: { ...cleanEnv(), ...env } });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line in 30 s; stderr:\n${err}`)), 30_000);
    const check = () => {
      const match = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}; stderr:\n${err}`)));
  });
  return {
    child,
    url,
    stdout: () => out,
    stderr: () => err,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}
