#!/usr/bin/env node
// `npm test`: every test/**/*.test.ts, each file in its own `node --import tsx` process with
// node:test's spec reporter. Files run side by side (each has its own database, ports and temporary
// directories), then the files marked `// test-run: serial: <reason>` run one at a time. When a
// selected file runs bin/kairan.js, dist/ is built once, beside the first files, and those files
// wait for it. Each file's output is printed whole when it ends; the last lines are the totals in
// node's TAP form (`# pass N`, `# fail N`), and any failure makes the exit status 1.
//
//   node scripts/run-tests.mjs [--unit] [--jobs N] [FILTER...]
//
// FILTER keeps the files whose path contains it; --unit keeps the pure tests (scripts/test-files.mjs);
// --jobs (or KAIRAN_TEST_JOBS) sets how many files run at once (default: twice the cores, as files
// mostly wait on databases and child processes). An empty selection is an error, never a green run.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { findTests, isUnit, needsDist, serialReason } from "./test-files.mjs";

const root = new URL("..", import.meta.url).pathname;
const COUNTS = ["tests", "suites", "pass", "fail", "cancelled", "skipped", "todo"];

function parseArgs(argv) {
  const options = {
    unit: false,
    jobs: Number(process.env.KAIRAN_TEST_JOBS || 2 * availableParallelism()),
    filters: [],
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--unit") options.unit = true;
    else if (argv[i] === "--jobs") options.jobs = Number(argv[++i]);
    else options.filters.push(argv[i]);
  }
  if (!Number.isInteger(options.jobs) || options.jobs < 1) {
    console.error("--jobs / KAIRAN_TEST_JOBS must be a whole number of at least 1");
    process.exit(2);
  }
  return options;
}

/** The children running now, stopped with this process. */
const running = new Set();

/** Runs `command` with its output into `outFile`; resolves with the exit code (a signal counts as 1). */
function runTo(outFile, command, args) {
  const fd = openSync(outFile, "w");
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  running.add(child);
  return new Promise((resolve) => {
    child.once("error", () => resolve(1));
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code ?? 1);
    });
  });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
}

/** The summary counts of a TAP report (`# pass 12`...), zero when the file died before writing them. */
function tapCounts(tapFile) {
  let text = "";
  try {
    text = readFileSync(tapFile, "utf8");
  } catch {
    // no report at all: the process died first
  }
  const counts = {};
  for (const name of COUNTS) counts[name] = Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return counts;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const files = findTests(root).filter(
    (file) =>
      (!options.unit || isUnit(file)) &&
      (options.filters.length === 0 || options.filters.some((filter) => file.includes(filter))),
  );
  if (files.length === 0) {
    console.error(`no test files found${options.filters.length ? ` matching ${options.filters.join(", ")}` : ""}`);
    process.exit(1);
  }
  const work = mkdtempSync(join(tmpdir(), "kairan-test-run-"));
  const started = performance.now();
  const totals = Object.fromEntries(COUNTS.map((name) => [name, 0]));
  const failedFiles = [];
  const times = [];
  // Bigger files first: the longest ones should not start last.
  const bySize = (a, b) => statSync(join(root, b)).size - statSync(join(root, a)).size;
  const serial = files.filter((file) => serialReason(root, file) !== undefined).sort();
  const parallel = files.filter((file) => !serial.includes(file)).sort(bySize);
  const distFiles = new Set(files.filter((file) => needsDist(root, file)));
  console.log(
    `${files.length} test files: ${parallel.length} side by side (${options.jobs} at once), ${serial.length} alone after them; ` +
      `${distFiles.size ? `building dist/ for ${distFiles.size} of them` : "no build needed"} ` +
      `(load average ${loadavg()[0].toFixed(2)}, ${availableParallelism()} cores)\n`,
  );

  let build = Promise.resolve(0);
  if (distFiles.size > 0) {
    const out = join(work, "build.out");
    build = runTo(out, "npm", ["run", "build", "--silent"]).then((code) => {
      if (code !== 0) {
        console.log(`── npm run build failed (exit ${code}); the files that run bin/kairan.js fail with it\n`);
        console.log(readFileSync(out, "utf8"));
      }
      return code;
    });
  }

  let index = 0;
  async function runFile(file) {
    const n = index++;
    const out = join(work, `${n}.out`);
    const tap = join(work, `${n}.tap`);
    const fileStarted = performance.now();
    let code = distFiles.has(file) ? await build : 0;
    if (code === 0) {
      code = await runTo(out, process.execPath, [
        "--import",
        "tsx",
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        "--test-reporter=tap",
        `--test-reporter-destination=${tap}`,
        file,
      ]);
    }
    const seconds = (performance.now() - fileStarted) / 1000;
    const counts = tapCounts(tap);
    // A file that exits non-zero without a failed test (it threw while loading, or was killed) fails too.
    if (code !== 0 && counts.fail === 0 && counts.cancelled === 0) {
      counts.tests += 1;
      counts.fail = 1;
    }
    for (const name of COUNTS) totals[name] += counts[name];
    times.push([seconds, file]);
    const failed = counts.fail > 0 || counts.cancelled > 0;
    if (failed) failedFiles.push(`${file} (${counts.fail} failed, ${counts.cancelled} cancelled, exit ${code})`);
    console.log(`── ${file}: ${failed ? "FAILED" : "ok"} in ${seconds.toFixed(1)} s`);
    console.log(code === 0 || existsSync(out) ? readFileSync(out, "utf8") : "(not run: the build failed)\n");
  }

  const queue = [...parallel];
  const pending = new Set();
  const ready = () => queue.findIndex((file) => !distFiles.has(file) || buildDone);
  let buildDone = distFiles.size === 0;
  void build.then(() => (buildDone = true));
  while (queue.length > 0 || pending.size > 0) {
    while (pending.size < options.jobs && queue.length > 0) {
      const at = ready();
      if (at < 0) break;
      const job = runFile(queue.splice(at, 1)[0]).then(() => pending.delete(job));
      pending.add(job);
    }
    // Wait for a file to end, or for the build (which may make waiting files ready).
    await Promise.race(buildDone ? [...pending] : [...pending, build]);
  }
  for (const file of serial) {
    console.log(`── alone: ${file} (${serialReason(root, file)})`);
    await runFile(file);
  }
  rmSync(work, { recursive: true, force: true });

  const slowest = times.sort((a, b) => b[0] - a[0]).slice(0, 10);
  console.log(`slowest files: ${slowest.map(([s, file]) => `${file} ${s.toFixed(1)} s`).join(", ")}`);
  if (failedFiles.length) console.log(`failed files:\n  ${failedFiles.join("\n  ")}`);
  for (const name of COUNTS) console.log(`# ${name} ${totals[name]}`);
  console.log(`# duration_ms ${Math.round(performance.now() - started)}`);
  process.exit(failedFiles.length > 0 || (await build) !== 0 ? 1 : 0);
}

await main();
