import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/kairan.js", import.meta.url));

/** What a finished `kairan` process left behind. */
export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Standard output parsed as JSON. */
  json<T = unknown>(): T;
}

/** Runs the built command line (`npm test` builds dist/ before the files that run it) against the data directory `data`. */
export function kairan(data: string, ...args: string[]): Run {
  const result = spawnSync(process.execPath, [BIN, ...args, "--data", data, "--log-level", "silent"], {
    encoding: "utf8",
    env: { ...process.env, KAIRAN_DEMO: "0" },
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    json: <T>() => JSON.parse(result.stdout) as T,
  };
}
