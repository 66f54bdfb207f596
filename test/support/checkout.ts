// The checkout the tests belong to. `npm test` runs the tests from a compiled mirror of it
// (scripts/compile-tests.mjs: src/ and test/ made again, every other top-level entry a link), so a
// path built from a test's own address leads into the mirror. Reading a file there is reading the
// checkout's, but a tool that asks the checkout itself (git, `npm pack`, `npm start`'s build) must
// be run in the checkout: this path.
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout's directory, the same under tsx and from the compiled mirror. */
export const CHECKOUT = dirname(realpathSync(fileURLToPath(new URL("../../package.json", import.meta.url))));
