// `npm run bench [-- --quick | --full]`: load benchmark of a real `kairan serve` process against a
// bare node:http baseline serving the same bytes, on a generated dataset. Speed is only ever a
// ratio to the baseline measured in the same run: the machine is shared and noisy.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Measured, measure } from "./load.js";
import { build, kairan, memoryMb, sampleRss, startBaseline, startKairan, uploadMemory } from "./processes.js";
import { scenarios } from "./scenarios.js";
import { scaleCheck } from "./scale.js";

const SEED = 1;
const DATASETS = {
  // One group of 5,000 members holding half the topics; 5 comments per topic.
  default: ["--users", "5000", "--groups", "100", "--big-members", "5000", "--topics", "20000", "--comments", "100000"],
  // The scale.
  full: ["--users", "10000", "--groups", "1000", "--big-members", "5000", "--topics", "1000000", "--comments", "5000000"],
} as const;

/** One row of the printed table. */
interface Row extends Measured {
  readonly name: string;
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  const full = process.argv.includes("--full");
  const seconds = quick ? 2 : 10;
  const work = mkdtempSync(join(tmpdir(), "kairan-bench-"));
  try {
    build();
    const data = join(work, "main");
    const summary = JSON.parse(kairan(["generate", "--data", data, "--seed", String(SEED), "--log-level", "warn", ...DATASETS[full ? "full" : "default"]])) as GenerateSummary;
    console.log(`dataset: ${JSON.stringify(summary.plan)} generated in ${summary.totalMs} ms (topics ${summary.timings.topics} ms)`);
    const rows = await runScenarios(work, data, summary, seconds);
    printTable(rows.rows);
    console.log(`kairan server memory: peak RSS sampled during the run ${rows.peakRss} MB, VmHWM after the run ${rows.hwm} MB`);
    console.log(`upload: ${uploadMemory()}`);
    await scaleCheck(work, seconds);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface GenerateSummary {
  readonly plan: { readonly bigGroupTopics: number };
  readonly timings: Record<string, number>;
  readonly totalMs: number;
}

async function runScenarios(work: string, data: string, summary: GenerateSummary, seconds: number) {
  const server = await startKairan(data);
  const pid = server.child.pid ?? 0;
  const peak = sampleRss(pid);
  try {
    const token = `gen-${SEED}-1`;
    const page = await fetch(`${server.url}/api/board/V2?group=1:1`, { headers: { authorization: `Bearer ${token}` } });
    const body = Buffer.from(await page.arrayBuffer());
    if (page.status !== 200) throw new Error(`board page: ${page.status} ${body.toString()}`);
    const headers = Object.fromEntries(["content-type", "etag", "last-modified", "cache-control", "vary"].map((name) => [name, page.headers.get(name) ?? ""]));
    writeFileSync(join(work, "body.xml"), body);
    writeFileSync(join(work, "headers.json"), JSON.stringify(headers));
    const baselineRow = await runBaseline(work, seconds);
    const list = scenarios({ token, groupId: 1, topicId: summary.plan.bigGroupTopics, boardEtag: headers.etag ?? "" });
    await measure(server.url, list[0]!, Math.max(1, seconds / 2)); // warm-up: JIT, page cache
    const rows: Row[] = [baselineRow];
    for (const scenario of list) rows.push({ name: scenario.name, ...(await measure(server.url, scenario, seconds)) });
    return { rows, peakRss: peak(), hwm: memoryMb(pid, "VmHWM") };
  } finally {
    await server.stop();
  }
}

async function runBaseline(work: string, seconds: number): Promise<Row> {
  const baseline = await startBaseline(join(work, "body.xml"), join(work, "headers.json"));
  try {
    const request = { method: "GET", path: "/", expect: 200 };
    await measure(baseline.url, request, Math.max(1, seconds / 2));
    return { name: "BASELINE node:http, same bytes", ...(await measure(baseline.url, request, seconds)) };
  } finally {
    await baseline.stop();
  }
}

function printTable(rows: readonly Row[]): void {
  const base = rows[0]?.requestsPerSecond ?? 1;
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  console.log(line(["scenario".padEnd(34), "req/s".padStart(7), "p50 ms", "p99 ms", "vs baseline", "failures"]));
  console.log(line(["-".repeat(34), "-".repeat(7), "------", "------", "-----------", "--------"]));
  for (const row of rows) {
    const ratio = `${((100 * row.requestsPerSecond) / base).toFixed(1)} %`;
    console.log(line([row.name.padEnd(34), String(row.requestsPerSecond).padStart(7), String(row.p50).padStart(6), String(row.p99).padStart(6), ratio.padStart(11), String(row.failures).padStart(8)]));
  }
}

await main();
