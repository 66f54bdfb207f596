// A module of its own: the in-process command line (cli-in-process.ts) uses it without importing
// cli.ts, which names the executable, so that scripts/run-tests.mjs need not build the compiled
// code before the files that run commands in-process only.

/** The environment without KAIRAN_* and AWS_* variables of the developer's shell (AWS_* would reach the S3 client). */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("KAIRAN_") && !key.startsWith("AWS_")),
  );
}
