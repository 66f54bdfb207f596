// `npm run soak -- --minutes N [--interval S] [--clients C]`: mixed load (reads, writes, likes,
// uploads: soak-workload.ts) against a real `kairan serve` process for N minutes, printing per
// interval the requests served, latency p50/p99, failures, and the server's memory (RSS and V8
// heap, both after a full GC, so growth means memory kept, not garbage not yet collected); then a
// start/end summary. A leak shows as heap and RSS that keep climbing from interval to interval.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { build, kairan } from "./processes.js";
import { type Dataset, type Operation, nextOperation } from "./soak-workload.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SEED = 3;
const MEMBERS = 50;

/** The server's memory, in bytes, after a full GC. */
interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
}

/** What one interval saw. */
interface Interval {
  readonly latencies: number[];
  failures: number;
  readonly byKind: Map<Operation["kind"], number>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string", default: "5" },
      interval: { type: "string" },
      clients: { type: "string", default: "16" },
    },
  });
  const minutes = Number(values.minutes);
  const clients = Number(values.clients);
  const intervalSeconds = Number(values.interval ?? Math.max(10, Math.round((minutes * 60) / 12)));
  if (!(minutes > 0) || !(clients > 0) || !(intervalSeconds > 0))
    throw new Error("usage: npm run soak -- --minutes N [--interval S] [--clients C]");
  const work = mkdtempSync(join(tmpdir(), "kairan-soak-"));
  try {
    build();
    const data = join(work, "data");
    kairan([
      "generate",
      "--data",
      data,
      "--seed",
      String(SEED),
      "--log-level",
      "warn",
      "--users",
      String(MEMBERS),
      "--groups",
      "1",
      "--big-members",
      String(MEMBERS),
      "--topics",
      "2000",
      "--comments",
      "10000",
    ]);
    const server = await startProbedServer(data);
    try {
      await soak(server, minutes, intervalSeconds, clients);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function soak(server: ProbedServer, minutes: number, intervalSeconds: number, clients: number): Promise<void> {
  const tokens = Array.from({ length: MEMBERS }, (_, index) => `gen-${SEED}-${index + 1}`);
  const data: Dataset = { tokens, topicIds: await topicIds(server.url, tokens[0] ?? "") };
  const idle = await server.memory();
  console.log(
    `soak: ${minutes} min, ${clients} clients, a line every ${intervalSeconds} s; server idle: ${describe(idle)}`,
  );
  console.log(
    "time    requests   req/s   p50 ms   p99 ms  failures   reads writes likes uploads   RSS MB  heap used/total MB",
  );
  let current: Interval = newInterval();
  const samples: Memory[] = [];
  const endAt = Date.now() + minutes * 60_000;
  const clientLoops = Array.from({ length: clients }, async () => {
    while (Date.now() < endAt) {
      const operation = nextOperation(data);
      const started = performance.now();
      const ok = await send(server.url, operation, data);
      const interval = current;
      interval.latencies.push(performance.now() - started);
      interval.byKind.set(operation.kind, (interval.byKind.get(operation.kind) ?? 0) + 1);
      if (!ok) interval.failures++;
    }
  });
  const startedAt = Date.now();
  const ticker = (async () => {
    while (Date.now() < endAt) {
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(intervalSeconds * 1000, Math.max(0, endAt - Date.now()))),
      );
      const done = current;
      current = newInterval();
      const memory = await server.memory();
      samples.push(memory);
      printInterval(Math.round((Date.now() - startedAt) / 1000), done, intervalSeconds, memory);
    }
  })();
  await Promise.all([...clientLoops, ticker]);
  printSummary(idle, samples);
}

function newInterval(): Interval {
  return { latencies: [], failures: 0, byKind: new Map() };
}

/** Sends one operation; true when it got its success status. New topics join the pool. */
async function send(baseUrl: string, operation: Operation, data: Dataset): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}${operation.path}`, {
      method: operation.method,
      headers: operation.headers,
      body: operation.body,
    });
    const text = await response.text();
    if (response.status !== 200) return false;
    if (operation.path === "/api/board/V2" && operation.method === "POST" && data.topicIds.length < 10_000) {
      const id = /<entry><id>([^<]+)<\/id>/.exec(text)?.[1];
      if (id) data.topicIds.push(id);
    }
    return true;
  } catch {
    return false;
  }
}

async function topicIds(baseUrl: string, token: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/board/V2?group=1:1&max-results=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const ids = [...(await response.text()).matchAll(/<entry><id>([^<]+)<\/id>/g)].map((match) => match[1] ?? "");
  if (ids.length === 0) throw new Error("the generated board has no topics");
  return ids;
}

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const describe = (m: Memory) => `RSS ${mb(m.rss)} MB, heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} MB`;

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0);
}

function printInterval(at: number, interval: Interval, seconds: number, memory: Memory): void {
  const sorted = [...interval.latencies].sort((a, b) => a - b);
  const kinds = (["read", "write", "like", "upload"] as const).map((kind) => String(interval.byKind.get(kind) ?? 0));
  const cells = [
    `${String(at).padStart(4)} s`,
    String(sorted.length).padStart(10),
    (sorted.length / seconds).toFixed(0).padStart(7),
    percentile(sorted, 50).toFixed(1).padStart(8),
    percentile(sorted, 99).toFixed(1).padStart(8),
    String(interval.failures).padStart(9),
    `${kinds[0]!.padStart(7)} ${kinds[1]!.padStart(6)} ${kinds[2]!.padStart(5)} ${kinds[3]!.padStart(7)}`,
    mb(memory.rss).padStart(8),
    `${mb(memory.heapUsed)}/${mb(memory.heapTotal)}`.padStart(19),
  ];
  console.log(cells.join(" "));
}

/** Start = the first interval (warm: JIT, caches, pools); growth is measured from there. */
function printSummary(idle: Memory, samples: readonly Memory[]): void {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return;
  const growth = (a: number, b: number) => `${b >= a ? "+" : ""}${mb(b - a)} MB`;
  console.log(`\nsummary (after a full GC each time):`);
  console.log(`  idle, before load:        ${describe(idle)}`);
  console.log(`  start (first interval):   ${describe(first)}`);
  console.log(`  end (last interval):      ${describe(last)}`);
  console.log(
    `  start -> end:             RSS ${growth(first.rss, last.rss)}, heap used ${growth(first.heapUsed, last.heapUsed)}`,
  );
  console.log(
    `  peak during the run:      RSS ${mb(Math.max(...samples.map((s) => s.rss)))} MB, heap used ${mb(Math.max(...samples.map((s) => s.heapUsed)))} MB`,
  );
}

/** The server process with the memory probe loaded. */
interface ProbedServer {
  readonly url: string;
  memory(): Promise<Memory>;
  stop(): Promise<void>;
}

function startProbedServer(data: string): Promise<ProbedServer> {
  const args = [
    "--expose-gc",
    "--import",
    "./bench/memory-probe.mjs",
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
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit", "ipc"] });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve({ url: match[1], memory: () => askMemory(child), stop: () => stop(child) });
    });
    child.once("exit", (code) => reject(new Error(`kairan serve exited with ${code}`)));
  });
}

function askMemory(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    child.once("message", (message) => resolve(message as Memory));
    child.send("memory?");
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

await main();
