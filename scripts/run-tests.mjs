#!/usr/bin/env node
// `npm test`: every test/**/*.test.ts, each file in its own `node` process with node:test's spec
// reporter, running the JavaScript that scripts/compile-tests.mjs makes of src/ and test/ first
// (about 2 s before the first file; it saves each file's process about 2 CPU-seconds of loading
// through tsx). Files run side by side (each has its own database, ports and temporary
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
// A file still running after KAIRAN_TEST_FILE_TIMEOUT seconds (default 600) is stopped with all
// its children and fails, naming the timeout: a hung file must fail CI, never hold it to its limit.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { compileTests } from "./compile-tests.mjs";
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
  if (!(FILE_TIMEOUT_SECONDS > 0)) {
    console.error("KAIRAN_TEST_FILE_TIMEOUT must be a number of seconds above 0");
    process.exit(2);
  }
  return options;
}

/** The children running now, stopped with this process. */
const running = new Set();
/** The compiled mirrors this run made, removed when it is stopped. */
const made = new Set();

/** How long one file may run before it is stopped and fails. */
const FILE_TIMEOUT_SECONDS = Number(process.env.KAIRAN_TEST_FILE_TIMEOUT || 600);

/** Stops a child and every process it started (each child leads its own process group). */
function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs `command` with its output into `outFile`; resolves with the exit code (a signal counts as 1)
 * and whether it was stopped for running past `timeoutSeconds`.
 */
function runTo(outFile, command, args, timeoutSeconds = Infinity) {
  const fd = openSync(outFile, "w");
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  running.add(child);
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = Number.isFinite(timeoutSeconds)
      ? setTimeout(() => {
          timedOut = true;
          killGroup(child, "SIGKILL");
        }, timeoutSeconds * 1000)
      : undefined;
    child.once("error", () => resolve({ code: 1, timedOut }));
    child.once("exit", (code) => {
      clearTimeout(timer);
      running.delete(child);
      // What the file started and left behind (servers, browsers) goes with it.
      killGroup(child, "SIGKILL");
      resolve({ code: code ?? 1, timedOut });
    });
  });
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    for (const child of running) killGroup(child, signal);
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
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

/** The files that run side by side (bigger first: the longest should not start last), the serial ones, and those needing dist/. */
function plan(files) {
  const size = (file) => statSync(join(root, file)).size;
  const serial = files.filter((file) => serialReason(root, file) !== undefined);
  const parallel = files.filter((file) => !serial.includes(file)).sort((a, b) => size(b) - size(a));
  return { serial, parallel, dist: new Set(files.filter((file) => needsDist(root, file))) };
}

/** `npm run build`, once, reported when it fails; resolves with its exit code. */
function startBuild(work) {
  const out = join(work, "build.out");
  return runTo(out, "npm", ["run", "build", "--silent"]).then(({ code }) => {
    if (code !== 0) {
      console.log(`── npm run build failed (exit ${code}); the files that run bin/kairan.js fail with it\n`);
      console.log(readFileSync(out, "utf8"));
    }
    return code;
  });
}

/** Runs the files, `jobs` at a time; a file that needs dist/ starts once `build` has ended. */
async function runPool(files, jobs, needsBuild, build, runFile) {
  let built = false;
  void build.then(() => (built = true));
  const queue = [...files];
  const pending = new Set();
  while (queue.length > 0 || pending.size > 0) {
    while (pending.size < jobs && queue.length > 0) {
      const at = queue.findIndex((file) => built || !needsBuild(file));
      if (at < 0) break;
      const job = runFile(queue.splice(at, 1)[0]).then(() => pending.delete(job));
      pending.add(job);
    }
    // Wait for a file to end, or for the build (which may make waiting files ready).
    await Promise.race(built ? [...pending] : [...pending, build]);
  }
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
  const { serial, parallel, dist } = plan(files);
  console.log(
    `${files.length} test files: ${parallel.length} side by side ` +
      `(${options.jobs} at once), ${serial.length} alone after them; ` +
      `${dist.size ? `building dist/ for ${dist.size} of them` : "no build needed"} ` +
      `(load average ${loadavg()[0].toFixed(2)}, ${availableParallelism()} cores)\n`,
  );
  const build = dist.size > 0 ? startBuild(work) : Promise.resolve(0);
  const compiled = await compileTests(root);
  made.add(compiled);
  const report = new Report();
  let index = 0;
  const runFile = async (file) => {
    const code = dist.has(file) ? await build : 0;
    const run = code === 0 ? await runOne(file, compiled, join(work, String(index++))) : { code, seconds: 0 };
    report.add(file, run);
  };
  await runPool(parallel, options.jobs, (file) => dist.has(file), build, runFile);
  for (const file of serial) {
    console.log(`── alone: ${file} (${serialReason(root, file)})`);
    await runFile(file);
  }
  for (const dir of [work, compiled]) rmSync(dir, { recursive: true, force: true });
  report.close(performance.now() - started);
  process.exit(report.failed.length > 0 || (await build) !== 0 ? 1 : 0);
}

/**
 * One file in its own process, its compiled form in `compiled` (stack traces name the TypeScript
 * through the inline source maps): spec to `<base>.out` (with stderr), TAP to `<base>.tap`.
 */
async function runOne(file, compiled, base) {
  const started = performance.now();
  const { code, timedOut } = await runTo(
    `${base}.out`,
    process.execPath,
    [
      "--enable-source-maps",
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${base}.tap`,
      join(compiled, file.replace(/\.ts$/, ".js")),
    ],
    FILE_TIMEOUT_SECONDS,
  );
  return { code, timedOut, seconds: (performance.now() - started) / 1000, out: `${base}.out`, tap: `${base}.tap` };
}

/** What the files did: each printed whole as it ends, then the totals. */
class Report {
  totals = Object.fromEntries(COUNTS.map((name) => [name, 0]));
  failed = [];
  times = [];

  add(name, { code, timedOut = false, seconds, out, tap }) {
    const counts = tap ? tapCounts(tap) : Object.fromEntries(COUNTS.map((count) => [count, 0]));
    // A file that exits non-zero without a failed test (it threw while loading, was killed, or its
    // build failed) fails too.
    if (code !== 0 && counts.fail === 0 && counts.cancelled === 0) {
      counts.tests += 1;
      counts.fail = 1;
    }
    for (const count of COUNTS) this.totals[count] += counts[count];
    this.times.push([seconds, name]);
    const failed = counts.fail > 0 || counts.cancelled > 0;
    const why = timedOut ? `stopped: still running after ${FILE_TIMEOUT_SECONDS} s` : `exit ${code}`;
    if (failed) this.failed.push(`${name} (${counts.fail} failed, ${counts.cancelled} cancelled, ${why})`);
    console.log(`── ${name}: ${failed ? "FAILED" : "ok"} in ${seconds.toFixed(1)} s${timedOut ? ` (${why})` : ""}`);
    console.log(out ? readFileSync(out, "utf8") : "(not run: the build failed)\n");
  }

  close(ms) {
    const slowest = this.times.sort((a, b) => b[0] - a[0]).slice(0, 10);
    console.log(`slowest: ${slowest.map(([seconds, name]) => `${name} ${seconds.toFixed(1)} s`).join(", ")}`);
    if (this.failed.length) console.log(`failed:\n  ${this.failed.join("\n  ")}`);
    for (const count of COUNTS) console.log(`# ${count} ${this.totals[count]}`);
    console.log(`# duration_ms ${Math.round(ms)}`);
  }
}

await main();
