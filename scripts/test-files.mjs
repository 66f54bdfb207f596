// Which test files a run takes, and what each needs: read from the files themselves, so that a new
// test file needs no list to be updated (scripts/run-tests.mjs runs them).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The folders of pure tests (`npm run test:unit`): no server, no database, no child process. */
export const UNIT_DIRS = ["test/atom", "test/auth", "test/config", "test/domain", "test/http-kit", "test/present"];

/** The mark of a file that must run alone, after the others: `// test-run: serial: <reason>`. */
const SERIAL_MARK = /^\/\/ test-run: serial(?::\s*(.*))?$/m;

/** What a file (or a test module it imports) says when it runs the compiled command line. */
const USES_DIST = /bin\/kairan\.js|\bdist\//;

/** Every test/**\/*.test.ts under `root`, as paths relative to it, sorted. */
export function findTests(root, dir = join(root, "test")) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(root, path));
    else if (name.endsWith(".test.ts")) found.push(relative(root, path));
  }
  return found;
}

/** Whether `file` is one of the pure tests. */
export function isUnit(file) {
  return UNIT_DIRS.some((dir) => file.startsWith(`${dir}/`));
}

/**
 * The serial mark's reason, or undefined for a file that may run beside others.
 * @throws Error when the mark gives no reason
 */
export function serialReason(root, file) {
  const match = SERIAL_MARK.exec(readFileSync(join(root, file), "utf8"));
  if (!match) return undefined;
  if (!match[1]?.trim()) throw new Error(`${file}: "// test-run: serial" needs a reason: "// test-run: serial: why"`);
  return match[1].trim();
}

/**
 * Whether `file` runs bin/kairan.js (which loads dist/): it, or a module under test/ that it
 * imports (directly or not), names bin/kairan.js or dist/. A false "yes" costs a build; so the
 * pattern is loose.
 */
export function needsDist(root, file, seen = new Set()) {
  const path = resolve(root, file);
  if (seen.has(path)) return false;
  seen.add(path);
  const source = readFileSync(path, "utf8");
  if (USES_DIST.test(source)) return true;
  return testImports(root, path, source).some((imported) => needsDist(root, imported, seen));
}

/** The test/ modules `path` imports by relative path (`./x.js` is the file `./x.ts`). */
function testImports(root, path, source) {
  const testDir = join(root, "test");
  const specifiers = [...source.matchAll(/\bfrom\s+"(\.{1,2}\/[^"]+)"|\bimport\(\s*"(\.{1,2}\/[^"]+)"\s*\)/g)];
  return specifiers
    .map((match) => resolve(dirname(path), (match[1] ?? match[2]).replace(/\.js$/, ".ts")))
    .filter((imported) => imported.startsWith(`${testDir}/`) && existsSync(imported));
}
