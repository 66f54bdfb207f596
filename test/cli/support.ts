import { type CliRun, runKairanHere } from "../support/cli-in-process.js";

/**
 * Runs a command against the data directory `data` (no log, no demo workspace) in this process
 * (test/support/cli-in-process.ts); what only a process shows is in bad-input.test.ts.
 */
export function kairan(data: string, ...args: string[]): Promise<CliRun> {
  return runKairanHere([...args, "--data", data, "--log-level", "silent"], { KAIRAN_DEMO: "0" });
}
