import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
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
  stop(): Promise<void>;
}

/** Compiles src/ to dist/ (incremental: cheap when nothing changed) with the web assets, as `npm run build` does. */
export function build(): void {
  const result = spawnSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error("build failed");
  // Without the templates and static files a fresh checkout's server exits at start.
  const assets = spawnSync(process.execPath, ["scripts/copy-web-assets.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (assets.status !== 0) throw new Error("copying the web assets failed");
}

/** Runs `kairan ARGS` to completion and returns its standard output. */
export function kairan(args: readonly string[]): string {
  const result = spawnSync(process.execPath, ["bin/kairan.js", ...args], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 24 });
  if (result.status !== 0) throw new Error(`kairan ${args.join(" ")} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Extra node flags for the server process, to compare V8 settings: BENCH_NODE_FLAGS="--max-semi-space-size=2". */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** Starts a real `kairan serve` process on a free port (`extra`: more options); rate limiting off, or it would set the pace. */
export function startKairan(data: string, extra: readonly string[] = []): Promise<Listening> {
  return listen([...NODE_FLAGS, "bin/kairan.js", "serve", "--port", "0", "--data", data, "--no-demo", "--log-level", "warn", "--no-rate-limit", ...extra]);
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
      if (match?.[1]) resolve({ url: match[1], child, stop: () => stop(child) });
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
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
