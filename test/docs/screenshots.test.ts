// The screenshots `npm run screenshots` writes are what the README shows: every picture it links
// is there, every picture there is linked, each page is shot at both widths, and they stay small.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;
const FOLDER = "docs/screenshots";
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** A screenshot may weigh this much: the repository carries every one of them. */
const MAX_BYTES = 150 * 1024;

const linked = new Set([...README.matchAll(/docs\/screenshots\/([a-z0-9-]+\.png)/g)].map((m) => m[1] ?? ""));
const present = new Set(readdirSync(join(ROOT, FOLDER)));

describe("the README's screenshots", () => {
  it("links every screenshot there is, and every one it links is there", () => {
    assert.ok(linked.size >= 20, `the README links ${linked.size} screenshots`);
    assert.deepEqual(
      [...linked].filter((name) => !present.has(name)),
      [],
      "linked but missing",
    );
    assert.deepEqual(
      [...present].filter((name) => !linked.has(name)),
      [],
      "present but not linked",
    );
  });

  it("shows each page at desktop and phone width", () => {
    const pages = (width: string) =>
      [...present]
        .filter((name) => name.startsWith(`${width}-`))
        .map((name) => name.slice(width.length + 1))
        .sort();
    assert.deepEqual(pages("phone"), pages("desktop"));
    assert.equal(pages("desktop").length * 2, present.size, "every file is a desktop or a phone shot");
  });

  it(`keeps each picture a PNG under ${MAX_BYTES / 1024} KB`, () => {
    for (const name of present) {
      const file = join(ROOT, FOLDER, name);
      assert.ok(statSync(file).size <= MAX_BYTES, `${name} weighs ${statSync(file).size} bytes`);
      assert.deepEqual([...readFileSync(file).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  });
});
