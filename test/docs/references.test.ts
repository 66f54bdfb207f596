// The repository stands alone: no tracked file points at documents outside it (a clone has only
// its own docs/). The check is also run against made-up lines, so it is known to catch them.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = resolve(import.meta.dirname, "../..");

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
    const files = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" })
      .split("\n")
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
