#!/usr/bin/env node
// Runs every test/**/*.test.ts with node:test through tsx.
// Node 20 neither expands globs nor finds .ts files by itself (`node --test` alone runs nothing and
// exits 0), so the file list is built here, and an empty list is an error rather than a green run.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith(".test.ts")) found.push(relative(root, path));
  }
  return found;
}

const filters = process.argv.slice(2);
const files = findTests(join(root, "test")).filter(
  (file) => filters.length === 0 || filters.some((filter) => file.includes(filter)),
);
if (files.length === 0) {
  console.error(`no test files found${filters.length ? ` matching ${filters.join(", ")}` : ""}`);
  process.exit(1);
}

const result = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", ...files], {
  cwd: root,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
