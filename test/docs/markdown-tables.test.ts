// Every Markdown table of README.md and docs/ renders as a table: its first row is the header,
// the second the separator (`| --- |`), and no other row is a separator. A separator written
// before the header, or twice, renders as a paragraph of pipes or a row of dashes.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;
const DOCUMENTS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

const isRow = (line: string) => line.startsWith("|");
const isSeparator = (line: string) => /^\|(?:\s*:?-+:?\s*\|)+\s*$/.test(line);

/** The misplaced separators of a document's tables, as "file:line: what". */
export function tableFaults(file: string, text: string): string[] {
  const faults: string[] = [];
  let inFence = false;
  let row = 0;
  text.split("\n").forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence || !isRow(line)) {
      row = 0;
      return;
    }
    row += 1;
    const where = `${file}:${index + 1}`;
    if (row === 1 && isSeparator(line)) faults.push(`${where}: a table starts with its separator, before the header`);
    else if (row === 2 && !isSeparator(line)) faults.push(`${where}: the header is not followed by a separator`);
    else if (row > 2 && isSeparator(line)) faults.push(`${where}: a second separator (renders as a row of dashes)`);
  });
  return faults;
}

it("finds a misplaced separator: the check itself can fail", () => {
  assert.equal(tableFaults("x.md", "| a | b |\n| - | - |\n| 1 | 2 |\n").length, 0);
  assert.equal(tableFaults("x.md", "| - | - |\n| a | b |\n").length, 2);
  assert.equal(tableFaults("x.md", "| a | b |\n| - | - |\n| - | - |\n").length, 1);
});

it("every table of README.md and docs/ has its header first and one separator after it", () => {
  const faults = DOCUMENTS.flatMap((file) => tableFaults(file, readFileSync(join(ROOT, file), "utf8")));
  assert.deepEqual(faults, []);
});
