// The TypeScript of src/ and test/ turned into JavaScript once per `npm test`, so that each test
// file's process loads plain modules instead of compiling through tsx's loader hooks: on Node 20
// those hooks run in a second thread and answer every import (the project's and the packages') by
// message. Loading the server cost 3.2 to 3.5 CPU-seconds that way and 1.1 to 1.3 compiled.
//
// The output is a mirror of the repository in a new directory under .tmp/ (one per run, so two
// runs in one checkout never share it; the caller removes it). Each directory of src/ and test/ is
// made again: each `.ts` file with its `.js` beside it (esbuild's per-file transform, the one tsx
// applies, with the source map inline), every other file copied. Every other top-level entry is a
// link to the real one. So a path a module computes from its own address (`new URL("../fixtures/..",
// import.meta.url)`, `bin/kairan.js`, `seeds/demo.json`, a `.ts` probe run by `node --import tsx`)
// reaches the same file as from the sources. A tool that asks the checkout itself (git, npm) must
// be given the checkout: test/support/checkout.ts.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { build } from "esbuild";

/** The folders whose TypeScript the tests import; everything else at the top is linked whole. */
const COMPILED = ["src", "test"];
/** Never mirrored: the repository's history, and the mirror itself. */
const SKIPPED = new Set([".git", ".tmp"]);

/** Compiles src/ and test/ of `root` into a new directory under `root/.tmp/` and returns it. */
export async function compileTests(root) {
  mkdirSync(join(root, ".tmp"), { recursive: true });
  const out = mkdtempSync(join(root, ".tmp", "compiled-"));
  for (const entry of readdirSync(root)) {
    if (SKIPPED.has(entry) || COMPILED.includes(entry)) continue;
    symlinkSync(join(root, entry), join(out, entry));
  }
  const sources = [];
  for (const folder of COMPILED) mirror(join(root, folder), join(out, folder), sources);
  await build({
    entryPoints: sources,
    outdir: out,
    outbase: root,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "inline",
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "error",
  });
  return out;
}

/**
 * Makes `to` like `from`: directories again, each `.ts` file linked (read, never written: a probe
 * run by tsx), every other file copied. Copied, not linked: a test that copies a fixture folder and
 * spoils the copy (`cpSync` copies a link as a link) would otherwise write through to the
 * checkout's file. Collects the `.ts` files to compile.
 */
function mirror(from, to, sources) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) mirror(source, target, sources);
    else if (!entry.name.endsWith(".ts")) copyFileSync(source, target);
    else {
      symlinkSync(relative(to, source), target);
      if (!entry.name.endsWith(".d.ts")) sources.push(source);
    }
  }
}
