import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Runs `node bench/upload-memory.mjs` (its own server, 50 MB upload); returns its last line. */
export function uploadMemory(): string {
  const result = spawnSync(process.execPath, ["bench/upload-memory.mjs"], { cwd: ROOT, encoding: "utf8" });
  const lines = result.stdout.trim().split("\n");
  return `${lines.at(-1) ?? ""}${result.status === 0 ? "" : ` -> FAILED (exit ${result.status})`}`;
}

/** A child process that printed "listening on URL". */
export interface Listening {
  readonly url: string;
  readonly child: ChildProcess;
  /** SIGTERM: the server finishes what it has in flight; SIGKILL: it does not. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
}

/** Compiles src/ to dist/ with the web assets, as `npm run build` does, unless nothing under src/ (nor a tsconfig) changed since the last build. */
export function build(): void {
  if (
    newestMtime(
      `${ROOT}src`,
      ["tsconfig.json", "tsconfig.build.json"].map((name) => ROOT + name),
    ) < mtimeOf(`${ROOT}dist/.tsbuildinfo`)
  )
    return;
  const result = spawnSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("build failed");
  // Without the templates and static files a fresh checkout's server exits at start.
  const assets = spawnSync(process.execPath, ["scripts/copy-web-assets.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (assets.status !== 0) throw new Error("copying the web assets failed");
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The newest modification time under `dir` (directories too: a deleted file changes its folder's) and of `files`. */
function newestMtime(dir: string, files: readonly string[]): number {
  const under = readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) =>
    join(entry.parentPath, entry.name),
  );
  return Math.max(mtimeOf(dir), ...files.map(mtimeOf), ...under.map(mtimeOf));
}

/** Runs `kairan ARGS` to completion and returns its standard output. */
export function kairan(args: readonly string[]): string {
  const result = spawnSync(process.execPath, ["bin/kairan.js", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  if (result.status !== 0) throw new Error(`kairan ${args.join(" ")} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Extra node flags for the server process, to compare V8 settings: BENCH_NODE_FLAGS="--max-semi-space-size=2". */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** Starts a real `kairan serve` process on a free port (`extra`: more options); rate limiting off, or it would set the pace. */
export function startKairan(data: string, extra: readonly string[] = []): Promise<Listening> {
  return listen([
    ...NODE_FLAGS,
    "bin/kairan.js",
    "serve",
    "--port",
    "0",
    "--data",
    data,
    "--no-demo",
    "--log-level",
    "warn",
    "--no-rate-limit",
    ...extra,
  ]);
}

/** Starts the bare node:http baseline serving `bodyFile` with the headers in `headersFile`. */
export function startBaseline(bodyFile: string, headersFile: string): Promise<Listening> {
  return listen(["bench/baseline-server.mjs", bodyFile, headersFile]);
}

function listen(args: readonly string[]): Promise<Listening> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], child, stop: (signal) => stop(child, signal) });
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

function stop(child: ChildProcess, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** A field of /proc/PID/status in MB (VmRSS: now; VmHWM: the peak resident set so far). */
export function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return Math.round(kb / 1024);
}

/** Samples VmRSS every 250 ms until stopped; returns the highest sample. */
export function sampleRss(pid: number): () => number {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryMb(pid, "VmRSS"));
    } catch {
      // The process has exited: keep the last peak.
    }
  }, 250);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** CPU time the process has used so far, in clock ticks (utime + stime of /proc/PID/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the process has used (almost) no CPU for three windows of `windowMs` in a row: the
 * requests a load run left in flight are done, so they do not run into the next scenario's
 * measurement. One quiet window is not enough on a loaded machine, where a busy server can go
 * unscheduled for 100 ms. Gives up after `timeoutMs`; returns the milliseconds waited.
 */
export async function waitIdle(pid: number, windowMs = 100, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  let last = cpuTicks(pid);
  for (let quiet = 0; quiet < 3 && performance.now() - started < timeoutMs;) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = cpuTicks(pid);
    // One tick (10 ms) per window is timers of an idle server.
    quiet = now - last <= 1 ? quiet + 1 : 0;
    last = now;
  }
  return Math.round(performance.now() - started);
}
