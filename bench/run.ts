// `npm run bench [-- --quick | --full]`: load benchmark of a real `kairan serve` process against a
// bare node:http baseline serving the same bytes, on a generated dataset. Speed is only ever a
// ratio to the baseline measured in the same run: the machine is shared and noisy.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Measured, measure } from "./load.js";
import { type GenerateSummary, discover } from "./inputs.js";
import { build, kairan, memoryMb, sampleRss, startBaseline, startKairan, uploadMemory, waitIdle } from "./processes.js";
import { scenarios } from "./scenarios.js";
import { scaleCheck } from "./scale.js";
import { type WritersRow, postgresWriters } from "./pg-writers.js";
import { searchBench } from "./search.js";
import { eventsBench } from "./events.js";
import { xmlProbesMicro } from "./xml.js";
import { mailBench } from "./mail.js";
import { mailFanoutBench } from "./mail-fanout.js";

const SEED = 1;
const DATASETS = {
  // One group of 5,000 members holding half the topics; 5 comments per topic.
  default: ["--users", "5000", "--groups", "100", "--big-members", "5000", "--topics", "20000", "--comments", "100000"],
  // The scale.
  full: [
    "--users",
    "10000",
    "--groups",
    "1000",
    "--big-members",
    "5000",
    "--topics",
    "1000000",
    "--comments",
    "5000000",
  ],
} as const;

/** One row of the printed table. */
interface Row extends Measured {
  readonly name: string;
  /** The Kairan server's peak RSS during the row, in MB (sampled every 250 ms). */
  readonly rssMb?: number;
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  const full = process.argv.includes("--full");
  const seconds = quick ? 2 : 10;
  const work = mkdtempSync(join(tmpdir(), "kairan-bench-"));
  const phases: string[] = [];
  const timed = async <T>(name: string, step: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await step();
    phases.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  };
  try {
    // First, while this process is cold: what a probe costs the first request that sends one.
    console.log(await timed("xml", xmlProbesMicro));
    await timed("build", build);
    const data = join(work, "main");
    const generate = () =>
      kairan([
        "generate",
        "--data",
        data,
        "--seed",
        String(SEED),
        "--log-level",
        "warn",
        ...DATASETS[full ? "full" : "default"],
      ]);
    const summary = JSON.parse(await timed("generate", generate)) as GenerateSummary;
    console.log(
      `dataset: ${JSON.stringify(summary.plan)} generated in ${summary.totalMs} ms ${JSON.stringify(summary.timings)}`,
    );
    const rows = await timed("scenarios", () => runScenarios(work, data, summary, seconds));
    printTable(rows.rows);
    console.log(`writes in flight after each write row, drained in: ${rows.drains.join("; ")}`);
    console.log(
      `kairan server memory: peak RSS sampled during the run ${rows.peakRss} MB, VmHWM after the run ${rows.hwm} MB`,
    );
    console.log(`upload: ${await timed("upload", uploadMemory)}`);
    const postgres = process.env.KAIRAN_BENCH_DATABASE_URL ?? process.env.KAIRAN_TEST_DATABASE_URL;
    if (postgres === undefined) console.log("PostgreSQL writers: skipped (set KAIRAN_BENCH_DATABASE_URL)");
    else {
      const { one, two } = await timed("postgres writers", () => postgresWriters(postgres, work, seconds));
      const line = (row: WritersRow) =>
        `${row.requestsPerSecond} req/s, p99 ${row.p99} ms, ${row.failures} failures, peak RSS ${row.rssMb} MB`;
      console.log(`PostgreSQL, create topic in one ordinary group, 1 process: ${line(one)}`);
      console.log(
        `PostgreSQL, create topic in one ordinary group, 2 processes: ${line(two)} (${(two.requestsPerSecond / Math.max(1, one.requestsPerSecond)).toFixed(2)}x)`,
      );
    }
    await timed("scale check", () => scaleCheck(work, quick ? 1 : seconds));
    await timed("search", () => searchBench(work, seconds, full ? 1_000_000 : quick ? 50_000 : 200_000));
    await timed("events", () => eventsBench(work, seconds));
    await timed("mail", () => mailBench(work, Math.min(seconds, 5)));
    await timed("mail-fanout", () => mailFanoutBench(process.env.KAIRAN_TEST_DATABASE_URL || undefined));
    console.log(`\nbench phases: ${phases.join(", ")}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function runScenarios(work: string, data: string, summary: GenerateSummary, seconds: number) {
  const server = await startKairan(data);
  const pid = server.child.pid ?? 0;
  const peak = sampleRss(pid);
  try {
    const found = await discover(server.url, summary);
    const { inputs } = found;
    console.log(
      `bench user ${found.userId}: member of group 1 (${summary.plan.bigGroupMembers} members) and of group ${inputs.typical.groupId} ` +
        `(${summary.plan.membersPerGroup} members), ${found.notifications} notifications; likes over ${inputs.typical.likeTopicIds.length} topics`,
    );
    writeFileSync(join(work, "body.xml"), found.board.body);
    writeFileSync(join(work, "headers.json"), JSON.stringify(found.board.headers));
    const baselineRow = await runBaseline(work, seconds);
    const list = scenarios(inputs);
    await measure(server.url, list[0]!, Math.max(1, seconds / 2)); // warm-up: JIT, page cache
    const rows: Row[] = [baselineRow];
    const drains: string[] = [];
    for (const [index, scenario] of list.entries()) {
      const rowPeak = sampleRss(pid);
      const measured = await measure(server.url, scenario, seconds);
      rows.push({ name: scenario.name, ...measured, rssMb: rowPeak() });
      // Writes still in flight when the run stops would otherwise be counted in the next row.
      if (scenario.method === "POST" && index < list.length - 1)
        drains.push(`${scenario.name} ${await waitIdle(pid)} ms`);
    }
    // Two samplers at different moments: either may have caught a spike the other missed.
    return {
      rows,
      drains,
      peakRss: Math.max(peak(), ...rows.map((row) => row.rssMb ?? 0)),
      hwm: memoryMb(pid, "VmHWM"),
    };
  } finally {
    // The database is thrown away: no need to wait for the last row's queued writes (32 fan-outs
    // to 5,000 members take seconds).
    await server.stop("SIGKILL");
  }
}

async function runBaseline(work: string, seconds: number): Promise<Row> {
  const baseline = await startBaseline(join(work, "body.xml"), join(work, "headers.json"));
  try {
    const request = { method: "GET", path: "/", expect: 200 } as const;
    await measure(baseline.url, request, Math.max(1, seconds / 2));
    return { name: "BASELINE node:http, same bytes", ...(await measure(baseline.url, request, seconds)) };
  } finally {
    await baseline.stop();
  }
}

function printTable(rows: readonly Row[]): void {
  const base = rows[0]?.requestsPerSecond ?? 1;
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  console.log(
    line(["scenario".padEnd(34), "req/s".padStart(7), "p50 ms", "p99 ms", "vs baseline", "failures", "server MB"]),
  );
  console.log(line(["-".repeat(34), "-".repeat(7), "------", "------", "-----------", "--------", "---------"]));
  for (const row of rows) {
    const ratio = `${((100 * row.requestsPerSecond) / base).toFixed(1)} %`;
    console.log(
      line([
        row.name.padEnd(34),
        String(row.requestsPerSecond).padStart(7),
        String(row.p50).padStart(6),
        String(row.p99).padStart(6),
        ratio.padStart(11),
        String(row.failures).padStart(8),
        String(row.rssMb ?? "").padStart(9),
      ]),
    );
  }
}

await main();
