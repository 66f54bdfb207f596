#!/usr/bin/env node
// The command line. It runs the compiled code in dist/ (built by `npm ci` through `prepare`,
// and again by `npm start` and `npm test`), so starting it costs no TypeScript compiler.
import { main } from "../dist/cli/main.js";

main(process.argv.slice(2)).catch((error) => {
  console.error(error);
  process.exit(1);
});
