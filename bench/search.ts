// Search (`npm run bench`, or alone: `npm run bench:search`): p99 of a three-character Japanese
// query and of a two-word English one at 8 connections, the 10th page against the first, adding
// a comment with the index against without it (in the same run, A/B/A), and `kairan reindex`.
// BENCH_SEARCH_DATA (a data directory) and BENCH_SEARCH_DATABASE (a PostgreSQL URL) reuse a
// workspace generated beforehand (`kairan generate`): 1,000,000 comments take minutes to make.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { withSchemaOption } from "../src/store/postgres/url.js";
import { CORPUS } from "../src/store/queries/dataset-corpus.js";
import { type Measured, measure } from "./load.js";
import { build, kairan, startKairan } from "./processes.js";

const SEED = 1;
const CONNECTIONS = 8;
const NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010" xmlns:cblCmnt="http://schemas.cybozulive.com/comment/2010"';

/** The most frequent three-kanji/kana run and adjacent English word pair of the generated text. */
export function benchQueries(): { japanese: string; english: string } {
  const count = (items: string[]) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
  };
  const trigrams: string[] = [];
  for (let i = 0; i + 3 <= CORPUS.length; i++) {
    const run = CORPUS.slice(i, i + 3);
    if (/^[\u3040-\u30ff\u4e00-\u9fff]{3}$/u.test(run)) trigrams.push(run);
  }
  const pairs: string[] = [];
  for (const sentence of CORPUS.split(/[.。]/)) {
    const words = sentence
      .trim()
      .split(" ")
      .filter((w) => /^[a-z]+$/.test(w));
    for (let i = 0; i + 1 < words.length; i++) pairs.push(`${words[i]} ${words[i + 1]}`);
  }
  return { japanese: count(trigrams), english: count(pairs) };
}

/** The workspace: generated here (`comments` of them), or the one BENCH_SEARCH_DATA names. */
function workspace(work: string, comments: number): { data: string; database?: string; generated: boolean } {
  const given = process.env.BENCH_SEARCH_DATA;
  const database = process.env.BENCH_SEARCH_DATABASE;
  if (given) return { data: given, ...(database ? { database } : {}), generated: false };
  const data = join(work, "search");
  const topics = Math.max(1, Math.round(comments / 5));
  kairan([
    "generate",
    "--data",
    data,
    ...(database ? ["--database", database] : []),
    "--seed",
    String(SEED),
    "--log-level",
    "warn",
    "--users",
    "2000",
    "--groups",
    "100",
    "--topics",
    String(topics),
    "--comments",
    String(comments),
    "--tasks",
    "2000",
    "--notification-topics",
    "10",
  ]);
  return { data, ...(database ? { database } : {}), generated: true };
}

/** Turns the comments' part of the index off and on again (what "without the index" measures). */
async function commentIndex(where: { data: string; database?: string }, on: boolean): Promise<void> {
  if (where.database) {
    // The URL's search_path (the bench's private schema) as pg itself understands it.
    const client = new pg.Client({ connectionString: withSchemaOption(where.database) });
    await client.connect();
    try {
      // Re-creating a GIN index over a million comments takes minutes: the last step turns it back on.
      await client.query(
        on
          ? "REINDEX INDEX comments_search"
          : "UPDATE pg_index SET indisready = false WHERE indexrelid = 'comments_search'::regclass",
      );
      if (on)
        await client.query("UPDATE pg_index SET indisready = true WHERE indexrelid = 'comments_search'::regclass");
    } finally {
      await client.end();
    }
    return;
  }
  const db = new SQLite(join(where.data, "kairan.sqlite"));
  try {
    if (on)
      db.exec(
        "CREATE TRIGGER IF NOT EXISTS comments_fts_insert AFTER INSERT ON comments BEGIN INSERT INTO comments_fts (rowid, body) VALUES (new.id, new.body); END",
      );
    else db.exec("DROP TRIGGER IF EXISTS comments_fts_insert");
  } finally {
    db.close();
  }
}

const line = (name: string, m: Measured) =>
  `${name.padEnd(44)} ${String(m.requestsPerSecond).padStart(6)} req/s  p50 ${String(m.p50).padStart(4)} ms  p99 ${String(m.p99).padStart(4)} ms  failures ${m.failures}`;

/** The search rows; `comments` sizes a generated workspace. */
export async function searchBench(work: string, seconds: number, comments: number): Promise<void> {
  const where = workspace(work, comments);
  const { japanese, english } = benchQueries();
  const engine = where.database ? "postgres" : "sqlite";
  console.log(
    `\nsearch [${engine}]: ${where.generated ? `${comments} comments generated` : `workspace ${where.data}`}`,
  );
  const server = await startKairan(where.data, [
    ...(where.database ? ["--database", where.database] : []),
    // Every request is a search: the feed cache would answer the repeats.
    "--feed-cache-mb",
    "0",
  ]);
  // User 1 is in the big group 1 (half of everything) and in small groups.
  const headers = { authorization: `Bearer gen-${SEED}-1` };
  const search = (query: string, extra = "") =>
    measure(
      server.url,
      { method: "GET", path: `/api/search/V2?q=${encodeURIComponent(query)}${extra}`, headers, expect: 200 },
      seconds,
      CONNECTIONS,
    );
  try {
    await search(english); // warm-up: JIT, page cache
    // The machine is shared: a plain board page at the same 8 connections is the yardstick.
    const reference = await measure(
      server.url,
      { method: "GET", path: "/api/board/V2?group=1:1", headers, expect: 200 },
      seconds,
      CONNECTIONS,
    );
    const ja = await search(japanese);
    const en = await search(english);
    const first = await search(english, "&max-results=20");
    const tenth = await search(english, "&start-index=180&max-results=20");
    console.log(line("reference: board page of group 1 (no cache)", reference));
    console.log(line(`search "${japanese}" (3 Japanese characters)`, ja) + `  target p99 < 50 ms`);
    console.log(line(`search "${english}" (2 English words)`, en) + `  target p99 < 50 ms`);
    console.log(line("  first page", first));
    console.log(
      line("  10th page (start-index=180)", tenth) +
        `  -> ${(tenth.p99 / Math.max(first.p99, 1)).toFixed(2)}x first p99 (target <= 2x)`,
    );
    const total = async (query: string) => {
      const text = await (
        await fetch(`${server.url}/api/search/V2?q=${encodeURIComponent(query)}&max-results=1`, { headers })
      ).text();
      return /<cbl:totalCount>(\d+)</.exec(text)?.[1] ?? "?";
    };
    console.log(`  hits: "${japanese}" ${await total(japanese)}, "${english}" ${await total(english)}`);
    // Adding a comment to a topic of one of the user's small groups (not the big group 1).
    const topic = await topicOfSmallGroup(server.url, headers);
    const post = {
      method: "POST",
      path: "/api/comment/V2",
      headers: { ...headers, "content-type": "application/atom+xml" },
      body: `<feed ${NS}><id>${topic}</id><entry><summary type="text">${CORPUS.slice(1000, 1100)}</summary></entry></feed>`,
      expect: 200,
    } as const;
    const write = () => measure(server.url, post, seconds, CONNECTIONS);
    await write(); // warm-up
    const withIndex = await write();
    await commentIndex(where, false);
    const without = await write();
    await commentIndex(where, true);
    const withAgain = await write();
    const withRate = (withIndex.requestsPerSecond + withAgain.requestsPerSecond) / 2;
    console.log(line("add comment, with the index", withIndex));
    console.log(line("add comment, without the index", without));
    console.log(line("add comment, with the index again", withAgain));
    console.log(
      `  cost of the index: ${((without.requestsPerSecond / Math.max(withRate, 1) - 1) * 100).toFixed(1)}% more time per comment (target <= 20%)`,
    );
  } finally {
    await server.stop();
  }
  const report = JSON.parse(
    kairan([
      "reindex",
      "--data",
      where.data,
      ...(where.database ? ["--database", where.database] : []),
      "--log-level",
      "warn",
    ]),
  ) as Record<string, number>;
  console.log(
    `kairan reindex: ${report.milliseconds} ms, database ${mb(report.databaseBytesBefore)} -> ${mb(report.databaseBytesAfter)} MB`,
  );
}

const mb = (bytes: number | undefined) => ((bytes ?? 0) / 1024 / 1024).toFixed(1);

async function topicOfSmallGroup(url: string, headers: Record<string, string>): Promise<string> {
  const groups = await (await fetch(`${url}/api/group/V2?max-results=100`, { headers })).text();
  const group = [...groups.matchAll(/<entry><id>GROUP,(1:\d+)<\/id>/g)].map((m) => m[1]).find((g) => g !== "1:1");
  const text = await (await fetch(`${url}/api/board/V2?group=${group}&max-results=1`, { headers })).text();
  const id = /<entry><id>([^<]+)<\/id>/.exec(text)?.[1];
  if (!id) throw new Error(`no topic in a small group of user 1: ${text.slice(0, 200)}`);
  return id;
}

// `npm run bench:search [-- --quick]`
if (process.argv[1]?.endsWith("search.ts")) {
  const quick = process.argv.includes("--quick");
  const work = mkdtempSync(join(tmpdir(), "kairan-bench-search-"));
  build();
  searchBench(work, quick ? 2 : 10, quick ? 50_000 : 200_000)
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    })
    .finally(() => rmSync(work, { recursive: true, force: true }));
}
