// Notification benchmark (`npm run bench:fanout [-- --quick] [-- --postgres URL] [-- --commit-checkpoints]`):
//  1. fan-out: creating a topic in a group of 5,000 members through the real service, which
//     writes 4,999 notifications in the same transaction (target: median under 50 ms on SQLite),
//     on a new group and on one whose members already hold 100 notifications each, next to the
//     same in a group of one, and adding a comment (the upsert's update path);
//  2. listing: the first page and a deep page of a user who has 100,000 notifications, through the
//     real service and presenter, with and without filters.
// SQLite always; PostgreSQL too with --postgres URL or KAIRAN_TEST_DATABASE_URL (in a fresh schema,
// dropped at the end). Speed is measured here only, never asserted in tests.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Clock } from "../src/clock.js";
import type { StoreConfig } from "../src/config/config.js";
import type { Actor } from "../src/domain/access.js";
import { notificationsFeed } from "../src/present/notification.js";
import { addComment } from "../src/services/comment/comment.js";
import { type NotificationQuery, listNotifications } from "../src/services/notification/notification.js";
import { createTopic } from "../src/services/topic/topic.js";
import { openLocalBlobStore } from "../src/blobs/local.js";
import { openStore } from "../src/store/open.js";
import { openPostgresDatabase } from "../src/store/postgres/open.js";
import type { Database } from "../src/store/schema.js";
import { openSqliteDatabase } from "../src/store/sqlite/open.js";
import type { Store } from "../src/store/store.js";

const MEMBERS = 5_000;
const NOTIFICATIONS = 100_000;
const quick = process.argv.includes("--quick");
const ROUNDS = { fresh: quick ? 10 : 20, fanOut: quick ? 30 : 100, list: quick ? 50 : 300, warmUp: quick ? 5 : 10 };

/** A clock that moves one millisecond per reading, so every change is newer than the last. */
class SteppingClock implements Clock {
  private current = Date.parse("2026-01-01T00:00:00Z");
  now(): number {
    return (this.current += 1);
  }
}

/** Wall-clock and CPU time of each run, in ms. */
interface Timings {
  readonly wall: number[];
  readonly cpu: number[];
}

function quantile(times: readonly number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * Median and p99 of the wall-clock times, and the median CPU time of this process: on a shared
 * machine the wall clock includes waiting for a core, the CPU time does not (for SQLite it is all
 * the work; for PostgreSQL only the client's part).
 */
function summary(times: Timings): string {
  const mean = times.wall.reduce((sum, t) => sum + t, 0) / Math.max(1, times.wall.length);
  return `median ${quantile(times.wall, 0.5).toFixed(2)} ms, mean ${mean.toFixed(2)} ms, p99 ${quantile(times.wall, 0.99).toFixed(2)} ms (CPU median ${quantile(times.cpu, 0.5).toFixed(2)} ms; ${times.wall.length} runs)`;
}

async function timeEach(rounds: number, work: (round: number) => Promise<unknown>): Promise<Timings> {
  for (let i = 0; i < ROUNDS.warmUp; i++) await work(-1 - i);
  const times: Timings = { wall: [], cpu: [] };
  for (let i = 0; i < rounds; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await work(i);
    times.wall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    times.cpu.push((used.user + used.system) / 1000);
  }
  return times;
}

function actorOf(userId: number): Actor {
  return {
    user: { id: userId, name: `User ${userId}`, email: `user${userId}@bench.example` },
    app: { id: 1, name: "bench", consumerKey: "bench", accessLevel: "Z" },
  };
}

/** Users 1..count and a group holding users 1..members (user 1 a manager); returns the group id. */
async function seedGroup(store: Store, firstUser: number, members: number, at: number): Promise<number> {
  return store.transaction(async (tx) => {
    const group = await tx.groups.insert({ name: `Group of ${members}`, summary: "", createdAt: at });
    for (let i = 0; i < members; i++) {
      const userId = firstUser + i;
      if (!(await tx.users.findById(userId))) {
        await tx.users.insert({
          name: `User ${userId}`,
          email: `user${userId}@bench.example`,
          familyKana: "",
          givenKana: "",
          passwordHash: "x",
          createdAt: at,
        });
      }
      await tx.memberships.insertJoined({ groupId: group.id, userId, manager: i === 0, notify: true, createdAt: at });
    }
    return group.id;
  });
}

async function benchFanOut(store: Store, dataDir: string, raw: () => Kysely<Database>): Promise<void> {
  const clock = new SteppingClock();
  const ctx = { store, blobs: openLocalBlobStore(dataDir), clock };
  const big = await seedGroup(store, 1, MEMBERS, clock.now());
  const alone = await seedGroup(store, 1, 1, clock.now());
  const author = actorOf(1);
  let lastTopic = 0;
  const create = (groupId: number) => async () => {
    const view = await createTopic(ctx, author, { groupId, title: "Fan-out", body: "A topic every member hears of." });
    lastTopic = view.topics[0]?.id ?? 0;
  };
  const members = MEMBERS.toLocaleString("en");
  const fresh = await timeEach(ROUNDS.fresh, create(big));
  console.log(`create topic, group of ${members}, no notifications yet:       ${summary(fresh)}`);
  const inAlone = await timeEach(ROUNDS.fresh, create(alone));
  console.log(`create topic, group of 1 (no notification to write):     ${summary(inAlone)}`);
  const db = raw();
  try {
    await preload(db, big);
  } finally {
    await db.destroy();
  }
  // Every member's part of the page index now has pages of its own: each fan-out touches one
  // page per member, the steady state of a busy group.
  const loaded = await timeEach(ROUNDS.fanOut, create(big));
  const held = `${PRELOAD_PER_MEMBER} notifications per member held`;
  console.log(`create topic, group of ${members}, ${held}: ${summary(loaded)}`);
  const parent = { kind: "BOARD" as const, groupId: big, id: lastTopic };
  const comment = await timeEach(ROUNDS.fanOut, () =>
    addComment(ctx, actorOf(2), { parent, text: "a comment", replyTo: undefined }),
  );
  console.log(`add comment (updates ${MEMBERS - 1} notifications), ${held}: ${summary(comment)}`);
}

/** Notifications per member of the big group loaded before the steady-state fan-outs. */
const PRELOAD_PER_MEMBER = 100;

/** PRELOAD_PER_MEMBER older topics in the group, each with a notification for every member but its author, item by item. */
async function preload(db: Kysely<Database>, groupId: number): Promise<void> {
  const lit = (value: number) => sql.lit(value);
  const start = Date.parse("2025-06-01T00:00:00Z");
  const started = performance.now();
  await sql`WITH RECURSIVE n(i) AS (SELECT CAST(1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ${lit(PRELOAD_PER_MEMBER)})
    INSERT INTO topics (group_id, title, body, author_id, folder_id, allow_edit, fast_notify, trashed, published_at, updated_at)
    SELECT ${lit(groupId)}, 'Old ' || i, '', 1, NULL, 0, 0, 0, ${lit(start)} + i * 1000, ${lit(start)} + i * 1000 FROM n ORDER BY i`.execute(
    db,
  );
  await sql`INSERT INTO notifications (user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments,
      comment_number, comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at)
    SELECT m.user_id, t.group_id, 'BOARD', t.id, 1, 'created', 0, 0, NULL, 0, NULL, NULL, t.updated_at, t.updated_at, NULL
    FROM topics t INNER JOIN memberships m ON m.group_id = t.group_id AND m.status = 'JOIN' AND m.user_id <> 1
    WHERE t.group_id = ${lit(groupId)} AND t.title LIKE 'Old %' ORDER BY t.id, m.user_id`.execute(db);
  console.log(
    `(loaded ${(PRELOAD_PER_MEMBER * (MEMBERS - 1)).toLocaleString("en")} older notifications into the group in ${Math.round(performance.now() - started)} ms)`,
  );
}

/**
 * User `reader` gets NOTIFICATIONS notifications of as many topics by `writer` in `groupId`, a
 * third of them confirmed, in two set-based statements (portable SQL, constants as literals).
 */
async function bulkNotifications(
  db: Kysely<Database>,
  groupId: number,
  reader: number,
  writer: number,
  postgres: boolean,
): Promise<void> {
  const lit = (value: number) => sql.lit(value);
  const start = Date.parse("2025-01-01T00:00:00Z");
  await sql`WITH RECURSIVE n(i) AS (SELECT CAST(1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ${lit(NOTIFICATIONS)})
    INSERT INTO topics (group_id, title, body, author_id, folder_id, allow_edit, fast_notify, trashed, published_at, updated_at)
    SELECT ${lit(groupId)}, 'Topic ' || i, 'Body of topic ' || i, ${lit(writer)}, NULL, 0, 0, 0, ${lit(start)} + i * 1000, ${lit(start)} + i * 1000
    FROM n ORDER BY i`.execute(db);
  await sql`INSERT INTO notifications (user_id, group_id, item_kind, item_id, actor_id, event, confirmed, unconfirmed_comments,
      comment_number, comment_deleted, summary_updated_at, summary_updator_id, created_at, updated_at, last_access_at)
    SELECT ${lit(reader)}, group_id, 'BOARD', id, author_id, 'created', CASE WHEN id % 3 = 0 THEN 1 ELSE 0 END, 0,
      NULL, 0, NULL, NULL, updated_at, updated_at, NULL
    FROM topics WHERE group_id = ${lit(groupId)} ORDER BY id`.execute(db);
  // PostgreSQL: what autovacuum would do after a bulk load (statistics, and the visibility map
  // that lets the page index answer alone).
  await (postgres ? sql`VACUUM ANALYZE notifications` : sql`ANALYZE`).execute(db);
}

async function benchListing(
  store: Store,
  dataDir: string,
  raw: () => Kysely<Database>,
  postgres: boolean,
): Promise<void> {
  const clock = new SteppingClock();
  const ctx = { store, blobs: openLocalBlobStore(dataDir), clock };
  const reader = MEMBERS + 1;
  const writer = MEMBERS + 2;
  const groupId = await seedGroup(store, reader, 2, clock.now());
  const muted = await seedGroup(store, reader, 2, clock.now());
  const db = raw();
  try {
    const started = performance.now();
    await bulkNotifications(db, groupId, reader, writer, postgres);
    console.log(
      `\n${NOTIFICATIONS.toLocaleString("en")} notifications for one user loaded in ${Math.round(performance.now() - started)} ms`,
    );
  } finally {
    await db.destroy();
  }
  // A muted group: the default list hides it (a NOT IN filter on every page).
  await store.transaction(async (tx) => {
    const membership = await tx.memberships.findJoined(muted, reader);
    if (membership) await tx.memberships.update(membership.id, { notify: false, at: clock.now() });
  });
  await createTopic(ctx, actorOf(writer), { groupId: muted, title: "muted", body: "" });
  const base: NotificationQuery = {
    unconfirmedOnly: false,
    includeRuledOut: false,
    embedAttachments: false,
    category: null,
    groupId: null,
    page: { offset: 0, limit: 20 },
  };
  const viewer = { id: reader, name: "Reader", email: "reader@bench.example" };
  const cases: [string, Partial<NotificationQuery>][] = [
    ["first page (20)", {}],
    ["first page, include-rule-out=true", { includeRuledOut: true }],
    ["first page, unconfirmed=true", { unconfirmedOnly: true }],
    ["first page, category=BOARD&group=", { category: "BOARD", groupId }],
    ["first page, max-results=100", { page: { offset: 0, limit: 100 } }],
    [`deep page, start-index=${NOTIFICATIONS - 20}`, { page: { offset: NOTIFICATIONS - 20, limit: 20 } }],
    ["deep page, unconfirmed=true&start-index=50000", { unconfirmedOnly: true, page: { offset: 50_000, limit: 20 } }],
  ];
  for (const [name, change] of cases) {
    const input = { ...base, ...change };
    let entries = 0;
    const times = await timeEach(ROUNDS.list, async () => {
      const view = await listNotifications(ctx, actorOf(reader), input);
      entries = view.notifications.length;
      notificationsFeed("http://bench.example", viewer, view, "ja", clock.now());
    });
    console.log(`list ${name.padEnd(48)} ${entries} entries: ${summary(times)}`);
  }
}

async function runOn(label: string, config: StoreConfig, raw: () => Kysely<Database>, dataDir: string): Promise<void> {
  console.log(`\n== ${label} ==`);
  // As the server runs it (kairan serve); --commit-checkpoints: at the commit that crosses the threshold, as commands do.
  const store = await openStore(config, { backgroundCheckpoints: !process.argv.includes("--commit-checkpoints") });
  try {
    await store.migrate();
    await benchFanOut(store, dataDir, raw);
    await benchListing(store, dataDir, raw, config.kind === "postgres");
  } finally {
    await store.close();
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const flag = process.argv.indexOf("--postgres");
  const postgresUrl = flag >= 0 ? process.argv[flag + 1] : process.env.KAIRAN_TEST_DATABASE_URL || undefined;
  const work = mkdtempSync(join(tmpdir(), "kairan-fanout-"));
  console.log(
    `notification benchmark${quick ? " (--quick)" : ""}: ${ROUNDS.fanOut} fan-outs and ${ROUNDS.list} listings per case, after ${ROUNDS.warmUp} warm-up runs`,
  );
  try {
    const file = join(work, "kairan.sqlite");
    await runOn("SQLite", { kind: "sqlite", file }, () => openSqliteDatabase(file), work);
    if (postgresUrl) {
      const schema = `kairan_bench_${randomBytes(4).toString("hex")}`;
      await adminQuery(postgresUrl, `create schema ${schema}`);
      try {
        const url = new URL(postgresUrl);
        url.searchParams.set("search_path", schema);
        const config = { kind: "postgres" as const, url: url.toString() };
        await runOn("PostgreSQL", config, () => openPostgresDatabase(config), work);
      } finally {
        await adminQuery(postgresUrl, `drop schema if exists ${schema} cascade`);
      }
    } else {
      console.log("\n(PostgreSQL skipped: pass --postgres URL or set KAIRAN_TEST_DATABASE_URL)");
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
