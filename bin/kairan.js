#!/usr/bin/env node
// The command line. It runs the compiled code in dist/ (built by `npm ci` through `prepare`,
// and again by `npm start` and `npm test`), so starting it costs no TypeScript compiler.
// This file is the one place that gives the command line this process (src/cli/io.ts): its
// streams, environment and signals, and the exit status runCli returns.
const cli = await import("../dist/cli/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error(`kairan: the compiled code is missing (${error.message.split("\n")[0]}); run 'npm run build' first`);
  process.exit(2);
});

/** Text written as console.log writes it: a reader that closed the pipe early (`kairan user list | head -1`) is no error. */
const lines = (log) => ({ write: (text) => log(text.replace(/\n$/, "")) });

const streams = {
  stdout: lines(console.log),
  stderr: lines(console.error),
  // Progress of a long command (kairan import), rewritten in place when a person watches the terminal.
  rawStderr: { write: (text) => process.stderr.write(text), isTTY: process.stderr.isTTY === true },
  // Made only when a command reads it (`user set-password --password-stdin`), as before runCli.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  process: {
    onSignal: (listener) => ["SIGTERM", "SIGINT"].forEach((signal) => process.on(signal, listener)),
    exit: (code) => process.exit(code),
  },
};

// The status is set, not forced: the process ends once its work has (`kairan serve` serves on).
// runCli reports every failure itself; the catch is only for what escapes it.
cli.runCli(process.argv.slice(2), streams).then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(cli.bugReport(error));
    process.exitCode = 1;
  },
);
