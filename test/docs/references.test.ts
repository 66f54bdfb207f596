// The repository stands alone: no tracked file points at documents outside it (a clone has only
// its own docs/), and every path of the repository that README.md and docs/ name exists (a file
// moved or renamed takes its documents along). Each check is also run against made-up lines, so it
// is known to catch them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;

// Built from parts, so that this file does not trip its own check.
const SPEC_NAMES = ["decisions", "interface", "design", "extensions"].map((name) => `${name}\\.md`);
const OUTSIDE_REFERENCE = new RegExp(
  [
    String.raw`\.\./` + "shared",
    `\\b(${SPEC_NAMES.join("|")})`,
    "client-" + "requests",
    String.raw`(?<!docs/)\b` + "operations" + String.raw`\.md`,
  ].join("|"),
);
const BINARY = /\.(png|jpe?g|gif|ico|woff2?|sqlite)$/;

/** `file:line: text` for each line of `text` that points at documents outside the repository. */
function outsideReferences(file: string, text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) => (OUTSIDE_REFERENCE.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

describe("the repository stands alone", () => {
  it("no tracked file refers to documents outside it", () => {
    // -z: names as they are (without it git quotes non-ASCII ones, such as the import's fixtures).
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter((file) => file !== "" && file !== "package-lock.json" && !BINARY.test(file));
    assert.ok(files.includes("README.md"), "git lists the tracked files");
    const found = files.flatMap((file) => outsideReferences(file, readFileSync(join(ROOT, file), "utf8")));
    assert.deepEqual(found, [], "cite docs/ instead");
  });

  it("tells a reference to docs/operations.md from one to a document elsewhere", () => {
    const lines = [
      "see docs/operations.md",
      `see ${"operations"}.md`,
      `(${"decisions"}.md §6)`,
      `../${"shared"}/x`,
      `${"client-"}requests`,
      "docs/api.md",
    ];
    assert.deepEqual(
      lines.map((line) => outsideReferences("f", line).length),
      [0, 1, 1, 1, 1, 0],
    );
  });
});

/** The repository's own paths in a line of prose: under a top folder, up to a space, quote or bracket. */
const REPOSITORY_PATH = /(?<![\w./-])(?:\.\/)?((?:src|test|bench|scripts|docs|bin|seeds|\.ci)\/[\w./-]*)/g;

/** `file:line: path` for each path named in `text` that does not exist under `root`. */
function missingPaths(root: string, file: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) =>
    [...line.matchAll(REPOSITORY_PATH)].flatMap((match) => {
      // A pattern (`src/services/<resource>/`, `test/http/*.test.ts`) names no one path.
      if (/^[<*{]/.test(line.slice((match.index ?? 0) + match[0].length))) return [];
      // A sentence's full stop or comma, a `path:line` suffix.
      const path = (match[1] ?? "").replace(/[.,:;]+$/, "");
      return existsSync(join(root, path)) ? [] : [`${file}:${index + 1}: ${path}`];
    }),
  );
}

describe("the documents name paths that exist", () => {
  it("every path of the repository named in README.md and docs/ exists", () => {
    const documents = [
      "README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const named = documents.flatMap((file) => [...readFileSync(join(ROOT, file), "utf8").matchAll(REPOSITORY_PATH)]);
    assert.ok(named.length > 100, `the documents name paths (${named.length} found)`);
    const missing = documents.flatMap((file) => missingPaths(ROOT, file, readFileSync(join(ROOT, file), "utf8")));
    assert.deepEqual(missing, [], "a document names a path that does not exist: update it with the move");
  });

  it("finds a missing path in a line and passes over patterns, punctuation and line numbers", () => {
    const lines = [
      "see `src/store/store.ts` and src/store/nesting.ts.",
      "see src/store/gone.ts",
      "(`src/services/<resource>/`, test/http/*.test.ts)",
      "src/app.ts:12, docs/api.md#paging",
      "a folder: src/http-kit/ and another src/nowhere/",
      "not ours: node_modules/x/src/y.ts, https://example.com/src/z.ts",
    ];
    assert.deepEqual(
      lines.map((line) => missingPaths(ROOT, "f", line).length),
      [0, 1, 0, 0, 1, 0],
    );
  });
});
