// Run as its own process by test/store/nesting.test.ts: opens a SQLite store as `kairan serve` does
// (or, given `check`, as the tests do), runs a transaction and a read, and prints how many times
// AsyncLocalStorage ran, whose first run turns on promise hooks for the whole process on Node 20.
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let runs = 0;
const run = AsyncLocalStorage.prototype.run;
AsyncLocalStorage.prototype.run = function <R>(
  this: AsyncLocalStorage<unknown>,
  store: unknown,
  callback: (...args: unknown[]) => R,
  ...args: unknown[]
): R {
  runs += 1;
  return run.call(this, store, callback, ...args) as R;
};

const { openStore } = await import("../../src/store/open.js");
const dir = mkdtempSync(join(tmpdir(), "kairan-nesting-probe-"));
try {
  const store = await openStore(
    { kind: "sqlite", file: join(dir, "kairan.sqlite") },
    process.argv[2] === "check" ? { checkNesting: true } : {},
  );
  await store.migrate();
  await store.transaction((tx) => tx.users.list());
  await store.read((tx) => tx.users.list());
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ runs }));
