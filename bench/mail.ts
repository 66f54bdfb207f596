// Mail delivery (`npm run bench`, or alone: `npm run bench:mail [-- --quick]`): the targets
// for the 5,000 messages of a topic posted in a 5,000-member group where every member gets mail.
// The messages are written here with queueMails, the outbox's writer, as the mailer's pass writes
// them (that pass, and the post's own cost of notification mail, are bench/mail-fanout.ts):
//  1. delivery: a real `kairan serve --smtp-url` delivers the 5,000 messages to a local SMTP relay
//     (target: 200 messages/s or more), and its peak RSS meanwhile (target: under 200 MB);
//  2. reads (the big group's board, every URL new so no read is a cache hit) while it delivers,
//     against reads without (target: 90 % or more).
// SQLite. Speed is measured here only, never asserted in tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { queueMails } from "../src/services/mail/outbox.js";
import { openStore } from "../src/store/open.js";
import type { Tx } from "../src/store/store.js";
import { type Measured, measure } from "./load.js";
import { build, kairan, memoryMb, sampleRss, startKairan } from "./processes.js";
import { startSmtpCounter } from "./smtp-counter.js";

const SEED = 3;
const MEMBERS = 5_000;
const DOMAIN = { domain: "bench.example" };
/** A notification's size: a paragraph of text, and the same as HTML. */
const TEXT = `${"Alice posted a new topic in Team: Fan-out. A topic every member hears of. ".repeat(8)}\n\nhttps://kairan.bench.example/g/1/topics/1\n`;
const HTML = `<p>${TEXT.replace(/\n/g, "<br>")}</p><p><a href="https://kairan.bench.example/g/1/topics/1">Open the topic</a></p>`;

/** Writes one message to each member but the author, as a post's notification mail would. */
async function queueMemberMail(tx: Tx, now: number): Promise<void> {
  const messages = [];
  for (let userId = 2; userId <= MEMBERS; userId++)
    messages.push({
      kind: "notification" as const,
      to: `user${userId}@bench.example`,
      toName: `User ${userId}`,
      userId,
      subject: "[Team] Fan-out",
      text: TEXT,
      html: HTML,
      headers: { "List-Id": "Team <group-1.bench.example>" },
    });
  await queueMails(tx, DOMAIN, messages, now);
}

/** Reads in one-second windows until `until()`; their mean rate and worst p99. */
async function readWindows(url: string, token: string, until: () => boolean): Promise<Measured & { windows: number }> {
  const request = {
    method: "GET",
    path: "/api/board/V2?group=1:1",
    headers: { authorization: `Bearer ${token}` },
    expect: 200,
    uniqueQuery: true,
  } as const;
  const runs: Measured[] = [];
  do runs.push(await measure(url, request, 1, 8));
  while (!until());
  const mean = (pick: (run: Measured) => number) =>
    Math.round(runs.reduce((sum, run) => sum + pick(run), 0) / runs.length);
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    p50: mean((run) => run.p50),
    p99: Math.max(...runs.map((run) => run.p99)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    windows: runs.length,
  };
}

/** Part 2 and 3: one server delivers 5,000 messages twice: alone, then under reads. */
async function delivery(data: string, seconds: number): Promise<void> {
  const relay = await startSmtpCounter();
  const server = await startKairan(data, ["--smtp-url", relay.url]);
  const pid = server.child.pid ?? 0;
  const token = `gen-${SEED}-1`;
  const store = await openStore({ kind: "sqlite", file: join(data, "kairan.sqlite") });
  try {
    const windows = (count: number) => {
      let elapsed = 0;
      return readWindows(server.url, token, () => ++elapsed >= count);
    };
    await windows(seconds); // warm-up: JIT, page cache
    const quiet = await windows(seconds);
    const deliver = async (label: string, reads: boolean) => {
      const before = relay.arrivals.size;
      const queued = performance.now();
      await store.transaction((tx) => queueMemberMail(tx, Date.now()));
      const committed = performance.now();
      const peak = sampleRss(pid);
      let done = false;
      const arrived = relay.waitForDistinct(before + MEMBERS - 1, 300_000).then(() => (done = true));
      const during = reads ? await readWindows(server.url, token, () => done) : undefined;
      await arrived;
      const rss = peak();
      const times = [...relay.arrivals.values()].slice(before);
      const first = Math.min(...times);
      const last = Math.max(...times);
      const rate = (MEMBERS - 1) / ((last - first) / 1000);
      console.log(
        `delivery ${label}: ${MEMBERS - 1} messages (queued in one transaction of ${(committed - queued).toFixed(0)} ms) ` +
          `at ${rate.toFixed(0)} messages/s from the first to the last (target >= 200), ` +
          `${((last - committed) / 1000).toFixed(1)} s from the commit (the poll finds another process's rows within 2 s); ` +
          `server peak RSS ${rss} MB (target < 200 MB)`,
      );
      return during;
    };
    await deliver("alone", false);
    const during = await deliver("under reads", true);
    // Reads without delivery before and after it (A/B/A): the machine is shared and drifts.
    const after = await windows(seconds);
    const without = (quiet.requestsPerSecond + after.requestsPerSecond) / 2;
    if (during !== undefined)
      console.log(
        `reads of the board (8 connections, no cache hit): ${quiet.requestsPerSecond} and ${after.requestsPerSecond} req/s ` +
          `(p99 ${Math.max(quiet.p99, after.p99)} ms) before and after the delivery, ` +
          `${during.requestsPerSecond} req/s (p99 ${during.p99} ms) during it -> ${((100 * during.requestsPerSecond) / without).toFixed(1)} % ` +
          `(target >= 90 %; ${during.windows} one-second windows, ${quiet.failures + during.failures + after.failures} failures)`,
      );
    console.log(
      `server VmHWM after the mail runs: ${memoryMb(pid, "VmHWM")} MB; relay received ${relay.received()} messages`,
    );
  } finally {
    await store.close();
    await server.stop();
    await relay.close();
  }
}

/** The mail benchmark over a fresh workspace under `work`. */
export async function mailBench(work: string, seconds: number): Promise<void> {
  const data = join(work, "mail");
  const generated = kairan([
    "generate",
    "--data",
    data,
    "--seed",
    String(SEED),
    "--log-level",
    "warn",
    ...["--users", String(MEMBERS), "--groups", "2", "--big-members", String(MEMBERS), "--members-per-group", "20"],
    ...["--topics", "2000", "--comments", "4000", "--tasks", "0", "--notification-topics", "0"],
  ]);
  console.log(`\nmail: workspace generated in ${(JSON.parse(generated) as { totalMs: number }).totalMs} ms`);
  await delivery(data, seconds);
}

// `npm run bench:mail [-- --quick]`
if (process.argv[1]?.endsWith("mail.ts")) {
  const quick = process.argv.includes("--quick");
  const work = mkdtempSync(join(tmpdir(), "kairan-bench-mail-"));
  build();
  mailBench(work, quick ? 3 : 10)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => rmSync(work, { recursive: true, force: true }));
}
