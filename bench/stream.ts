// Live stream benchmark (`npm run bench:stream [-- --quick]`), SQLite, and PostgreSQL too with
// KAIRAN_TEST_DATABASE_URL (a second server over the same database holds half the streams):
//  a. 2,000 open streams: resident memory growth of the process (server and clients share it here,
//     so the figure is an upper bound for the server; target under 60 MB);
//  b. a chat message in a room of 200 members whose streams are all open: from the write's answer to the last
//     stream receiving it, p50/p99 over the rounds (target p99 under 250 ms on SQLite).
// Speed is measured here only, never asserted in tests.
import { performance } from "node:perf_hooks";
import type { TestUser } from "../test/support/factories.js";
import { ChatClient } from "../test/support/chat.js";
import { type TestServer, startSiblingServer, startTestServer } from "../test/support/server.js";
import { type SseClient, openSse } from "../test/support/sse.js";

const QUICK = process.argv.includes("--quick");
const STREAMS = QUICK ? 400 : 2000;
const MEMBERS = 200;
const ROUNDS = QUICK ? 10 : 40;

/** The write that raises one event for every member: a message pushed into their 200-member room. */
async function writeEvent(chat: ChatClient, author: TestUser, room: number, round: number): Promise<void> {
  await chat.say(author, room, `round ${round}`);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function openMany(urls: readonly string[], users: readonly TestUser[], count: number): Promise<SseClient[]> {
  const out: SseClient[] = [];
  for (let i = 0; i < count; i++) {
    const user = users[i % users.length]!;
    out.push(await openSse(`${urls[i % urls.length]}/api/stream/V2`, { authorization: `Bearer ${user.token}` }));
  }
  return out;
}

/** Every stream comes from this machine's one address: its cap is lifted here (docs/operations.md "Limits"). */
const LIMITS = { streamsPerAddress: String(STREAMS) };

async function run(backend: "sqlite" | "postgres"): Promise<void> {
  const server: TestServer = await startTestServer(backend, { limits: LIMITS });
  const sibling = backend === "postgres" ? await startSiblingServer(server, { limits: LIMITS }) : undefined;
  const urls = sibling ? [server.url, sibling.url] : [server.url];
  const f = server.factories;
  const author = await f.user({ name: "Author" });
  const members: TestUser[] = [];
  for (let i = 0; i < MEMBERS; i++) members.push(await f.user({ name: `Member ${i}` }));
  await f.group([author, ...members], { name: "Two hundred" });
  const chat = new ChatClient(server);
  const room = await chat.theme(author, "Two hundred", members);

  // b. latency to 200 open streams.
  const streams = await openMany(urls, members, MEMBERS);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const latencies: number[] = [];
  const fromStart: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const stream of streams) stream.events.length = 0;
    const arrivals = streams.map((stream) => stream.waitFor(() => true, 1, 10_000).then(() => performance.now()));
    const started = performance.now();
    await writeEvent(chat, author, room, round);
    const answered = performance.now();
    const last = Math.max(...(await Promise.all(arrivals)));
    // The streams often have it before the client has read the write's answer: counted as 0.
    latencies.push(Math.max(0, last - answered));
    fromStart.push(last - started);
  }
  latencies.sort((a, b) => a - b);
  fromStart.sort((a, b) => a - b);
  console.log(
    `[${backend}] event to ${MEMBERS} open streams${sibling ? " (split over two servers)" : ""}: ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms over ${ROUNDS} rounds; ` +
      `from the write's start: p50 ${percentile(fromStart, 50).toFixed(1)} ms, p99 ${percentile(fromStart, 99).toFixed(1)} ms`,
  );
  for (const stream of streams) stream.close();

  // a. memory of many open streams.
  await new Promise((resolve) => setTimeout(resolve, 300));
  global.gc?.();
  const before = process.memoryUsage().rss;
  const many = await openMany(urls, members, STREAMS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  global.gc?.();
  const after = process.memoryUsage().rss;
  console.log(
    `[${backend}] ${STREAMS} open streams: RSS +${((after - before) / 1024 / 1024).toFixed(1)} MB ` +
      `(server and clients in one process); hub holds ${server.app.liveHub.streamCount}`,
  );
  for (const stream of many) stream.close();
  await sibling?.close();
  await server.close();
}

await run("sqlite");
if (process.env.KAIRAN_TEST_DATABASE_URL) await run("postgres");
