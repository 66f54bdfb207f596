import { join } from "node:path";
import { measure } from "./load.js";
import { kairan, startKairan } from "./processes.js";

const SEED = 2;

/**
 * Does the board list cost grow with the board? A board of 1,000,000 topics (group 1) against one
 * of 1,000 (group 2) in the same database, and start-index=10000 against the first page.
 */
export async function scaleCheck(work: string, seconds: number): Promise<void> {
  const big = 1_000_000;
  const data = join(work, "scale");
  const args = [
    "--users",
    "100",
    "--groups",
    "2",
    "--big-members",
    "100",
    "--members-per-group",
    "100",
    "--topics",
    String(big + 1000),
    "--big-topics",
    String(big),
    "--comments",
    "0",
    "--tasks",
    "0",
    "--notification-topics",
    "0",
  ];
  const summary = JSON.parse(
    kairan(["generate", "--data", data, "--seed", String(SEED), "--log-level", "warn", ...args]),
  ) as { totalMs: number; timings: { topics: number } };
  console.log(`\nscale check: ${big + 1000} topics generated in ${summary.timings.topics} ms`);
  // The queries' cost is what grows or not with the board: with the feed cache every request
  // after the first would be a hit, whatever the board's size.
  const server = await startKairan(data, ["--feed-cache-mb", "0"]);
  try {
    const headers = { authorization: `Bearer gen-${SEED}-1` };
    const get = (path: string) => measure(server.url, { method: "GET", path, headers, expect: 200 }, seconds);
    await get("/api/board/V2?group=1:1");
    const small = await get("/api/board/V2?group=1:2");
    const large = await get("/api/board/V2?group=1:1");
    const deep = await get("/api/board/V2?group=1:1&start-index=10000");
    const cost = (a: number, b: number) => (a / b).toFixed(2);
    console.log(`board of 1,000:            ${small.requestsPerSecond} req/s, p99 ${small.p99} ms`);
    console.log(
      `board of ${big.toLocaleString("en")}:        ${large.requestsPerSecond} req/s, p99 ${large.p99} ms -> cost ${cost(small.requestsPerSecond, large.requestsPerSecond)}x (target <= 1.5x)`,
    );
    console.log(
      `start-index=10000 (large): ${deep.requestsPerSecond} req/s, p99 ${deep.p99} ms -> cost ${cost(large.requestsPerSecond, deep.requestsPerSecond)}x first page (target <= 3x)`,
    );
  } finally {
    await server.stop();
  }
}
