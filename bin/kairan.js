#!/usr/bin/env node
// The command line. It runs the compiled code in dist/ (built by `npm ci` through `prepare`,
// and again by `npm start` and `npm test`), so starting it costs no TypeScript compiler.
const cli = await import("../dist/cli/main.js").catch((error) => {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error(`kairan: the compiled code is missing (${error.message.split("\n")[0]}); run 'npm run build' first`);
  process.exit(2);
});

// main() reports every failure itself; this is only for what escapes it.
cli.main(process.argv.slice(2)).catch(cli.reportBug);
