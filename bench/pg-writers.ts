import { randomBytes } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import type { GenerateSummary } from "./inputs.js";
import { measure } from "./load.js";
import { kairan, sampleRss, startKairan } from "./processes.js";

const SEED = 3;
const NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblCmnt="http://schemas.cybozulive.com/comment/2010"';

/** One side of the row: requests per second over all processes, the worst p99, the peak RSS of the busiest process. */
export interface WritersRow {
  readonly requestsPerSecond: number;
  readonly p99: number;
  readonly failures: number;
  readonly rssMb: number;
}

/**
 * PostgreSQL, topics created in one ordinary group by 32 connections: against one `kairan serve`
 * process, then split 16 + 16 over two processes on the same database. With the group's change
 * version locked from a write until its commit, the two processes took turns; bumped at commit
 * (migration 0016) they do not. Runs in a schema of its own, dropped at the end.
 */
export async function postgresWriters(
  url: string,
  work: string,
  seconds: number,
): Promise<{ one: WritersRow; two: WritersRow }> {
  const schema = `kairan_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = withSearchPath(url, schema);
  try {
    const summary = JSON.parse(
      kairan([
        "generate",
        "--database",
        database,
        "--seed",
        String(SEED),
        "--log-level",
        "warn",
        ...["--users", "200", "--groups", "10", "--big-members", "50", "--topics", "2000", "--comments", "2000"],
      ]),
    ) as GenerateSummary;
    const typical = summary.typical;
    if (!typical) throw new Error("the dataset has no ordinary group");
    const request = {
      method: "POST",
      path: "/api/board/V2",
      headers: {
        authorization: `Bearer gen-${SEED}-${typical.userId}`,
        "content-type": "application/atom+xml; charset=utf-8",
      },
      body: `<feed ${NS}><cbl:operation type="insert"/><entry><cbl:group id="1:${typical.groupId}"/><title>Load test</title><summary type="text">Two processes, one group.</summary></entry></feed>`,
      expect: 200,
    } as const;
    const data = join(work, "pg-blobs");
    const servers = [
      await startKairan(data, ["--database", database]),
      await startKairan(data, ["--database", database]),
    ];
    try {
      const run = async (count: number): Promise<WritersRow> => {
        const used = servers.slice(0, count);
        const peaks = used.map((server) => sampleRss(server.child.pid ?? 0));
        const results = await Promise.all(used.map((server) => measure(server.url, request, seconds, 32 / count)));
        return {
          requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
          p99: Math.max(...results.map((r) => r.p99)),
          failures: results.reduce((sum, r) => sum + r.failures, 0),
          rssMb: Math.max(...peaks.map((peak) => peak())),
        };
      };
      await run(2); // warm-up: JIT, both pools connected
      return { one: await run(1), two: await run(2) };
    } finally {
      await Promise.all(servers.map((server) => server.stop("SIGKILL")));
    }
  } finally {
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("search_path", schema);
  return parsed.toString();
}
