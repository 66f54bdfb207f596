// Notification mail's cost to a post (`npm run bench:mail-fanout [-- --quick] [-- --postgres URL]`):
//  1. creating a topic in a group of 5,000 members through the real service, every member's mail
//     on ("each change") against every member's mail off, in alternating blocks: the post's own
//     latency, whose ratio issue #29 bounds at 1.5x;
//  2. the mailer's pass that turns that one post into 4,999 outbox messages (messages per second,
//     peak RSS of this process);
//  3. posts made while that pass runs, against posts made while it does not (on SQLite the pass's
//     transactions and the posts share the one writer).
// SQLite always; PostgreSQL too with --postgres URL or KAIRAN_TEST_DATABASE_URL (a fresh schema,
// dropped at the end). Speed is measured here only, never asserted in tests.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Clock } from "../src/clock.js";
import type { StoreConfig } from "../src/config/config.js";
import type { Actor } from "../src/domain/access.js";
import { openLocalBlobStore } from "../src/blobs/local.js";
import { runNotificationMail } from "../src/services/mail-notify/mailer.js";
import { createTopic } from "../src/services/topic/topic.js";
import { openStore } from "../src/store/open.js";
import { openPostgresDatabase } from "../src/store/postgres/open.js";
import type { Database } from "../src/store/schema.js";
import { openSqliteDatabase } from "../src/store/sqlite/open.js";
import type { Store } from "../src/store/store.js";

const MEMBERS = 5_000;
const quick = process.argv.includes("--quick");
const BLOCKS = quick ? 4 : 8;
const PER_BLOCK = quick ? 5 : 10;
const WARM_UP = quick ? 5 : 10;
const WINDOW_MS = 5 * 60 * 1000 + 1;

/** A clock that moves one millisecond per reading, and jumps when told (past the coalescing window). */
class BenchClock implements Clock {
  private current = Date.parse("2026-01-01T00:00:00Z");
  now(): number {
    return (this.current += 1);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

function quantile(times: readonly number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function summary(times: readonly number[]): string {
  return `median ${quantile(times, 0.5).toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms (${times.length} posts)`;
}

const actor: Actor = {
  user: { id: 1, name: "User 1", email: "user1@bench.example" },
  app: { id: 1, name: "bench", consumerKey: "bench", accessLevel: "Z" },
};

/** Users 1..MEMBERS in one group, each with mail settings (mode `each`); returns the group id. */
async function seed(store: Store, db: Kysely<Database>, at: number): Promise<number> {
  const groupId = await store.transaction(async (tx) => {
    const group = await tx.groups.insert({ name: "Everyone", summary: "", createdAt: at });
    return group.id;
  });
  const lit = (value: number) => sql.lit(value);
  await sql`WITH RECURSIVE n(i) AS (SELECT CAST(1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ${lit(MEMBERS)})
    INSERT INTO users (name, email, password_hash, family_kana, given_kana, created_at)
    SELECT 'User ' || i, 'user' || i || '@bench.example', 'x', '', '', ${lit(at)} FROM n ORDER BY i`.execute(db);
  await sql`INSERT INTO memberships (group_id, user_id, status, manager, notify, created_at, updated_at)
    SELECT ${lit(groupId)}, id, 'JOIN', CASE WHEN id = 1 THEN 1 ELSE 0 END, 1, ${lit(at)}, ${lit(at)} FROM users ORDER BY id`.execute(
    db,
  );
  await sql`INSERT INTO mail_settings (user_id, mode, digest_hour, personal, updated_at)
    SELECT id, 'each', 8, 1, ${lit(at)} FROM users ORDER BY id`.execute(db);
  // What autovacuum (PostgreSQL) or a long-running server would have done after such a load.
  await sql`ANALYZE`.execute(db);
  return groupId;
}

async function setMode(db: Kysely<Database>, mode: "each" | "off"): Promise<void> {
  await db.updateTable("mail_settings").set({ mode }).execute();
}

async function timePost(store: Store, clock: BenchClock, groupId: number): Promise<number> {
  const ctx = { store, blobs: openLocalBlobStore(tmpdir()), clock };
  const started = performance.now();
  await createTopic(ctx, actor, { groupId, title: "Release notes", body: "Everyone hears of this one." });
  return performance.now() - started;
}

async function runOn(label: string, config: StoreConfig, raw: () => Kysely<Database>): Promise<void> {
  console.log(`\n== ${label} ==`);
  const store = await openStore(config, { backgroundCheckpoints: true });
  const db = raw();
  try {
    await store.migrate();
    const clock = new BenchClock();
    const groupId = await seed(store, db, clock.now());
    for (let i = 0; i < WARM_UP; i++) await timePost(store, clock, groupId);
    // 1. The post alone: mail on and off in alternating blocks, so both see the same machine.
    const on: number[] = [];
    const off: number[] = [];
    for (let block = 0; block < BLOCKS; block++) {
      const settings = [
        ["each", on],
        ["off", off],
      ] as const;
      // Each setting goes first in every other block: neither gains from the other's warm-up.
      for (const [mode, times] of block % 2 === 0 ? settings : [...settings].reverse()) {
        await setMode(db, mode);
        for (let i = 0; i < PER_BLOCK; i++) times.push(await timePost(store, clock, groupId));
      }
    }
    const members = MEMBERS.toLocaleString("en");
    console.log(`create topic, ${members} members, every member's mail on (each change): ${summary(on)}`);
    console.log(`create topic, ${members} members, every member's mail off:              ${summary(off)}`);
    console.log(
      `  the post's latency with mail on / off: ${(quantile(on, 0.5) / quantile(off, 0.5)).toFixed(2)}x median, ${(quantile(on, 0.99) / quantile(off, 0.99)).toFixed(2)}x p99 (target: at most 1.5x)`,
    );

    // 2. The mailer's pass for one post with every member's mail on.
    await db.updateTable("mail_changes").set({ done: 1 }).execute();
    await setMode(db, "each");
    const mailContext = {
      store,
      blobs: openLocalBlobStore(tmpdir()),
      clock,
      config: {
        mail: { smtpUrl: undefined, from: "kairan@bench.example", domain: "bench.example", inboundPort: undefined },
        locale: "en" as const,
        timeZone: "UTC",
      },
      baseUrl: () => "https://kairan.bench.example",
    };
    await timePost(store, clock, groupId);
    clock.advance(WINDOW_MS);
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const pass = await runNotificationMail(mailContext);
    const took = performance.now() - started;
    clearInterval(probe);
    const rate = Math.round((pass.changes / took) * 1000);
    console.log(
      `mailer pass: 1 post -> ${pass.changes.toLocaleString("en")} outbox messages in ${Math.round(took)} ms (${rate.toLocaleString("en")} messages/s); RSS ${mb(rssBefore)} -> peak ${mb(peak)}`,
    );

    // 3. Posts while the mailer writes the messages of four earlier posts (about 20,000 rows),
    // between posts made before and after it (the group's notifications grow with every post).
    const idleBefore: number[] = [];
    for (let i = 0; i < 2 * PER_BLOCK; i++) idleBefore.push(await timePost(store, clock, groupId));
    await db.updateTable("mail_changes").set({ done: 1 }).execute();
    for (let i = 0; i < 4; i++) await timePost(store, clock, groupId);
    clock.advance(WINDOW_MS);
    const during: number[] = [];
    let running = true;
    const background = runNotificationMail(mailContext).finally(() => (running = false));
    while (running) during.push(await timePost(store, clock, groupId));
    const written = await background;
    await db.updateTable("mail_changes").set({ done: 1 }).execute();
    const idleAfter: number[] = [];
    for (let i = 0; i < 2 * PER_BLOCK; i++) idleAfter.push(await timePost(store, clock, groupId));
    const idle = [...idleBefore, ...idleAfter];
    console.log(`create topic, mailer idle (posts before and after it):             ${summary(idle)}`);
    console.log(
      `create topic while the mailer writes ${written.changes.toLocaleString("en")} messages: ${summary(during)}`,
    );
    console.log(
      `  during / idle: ${(quantile(during, 0.5) / quantile(idle, 0.5)).toFixed(2)}x median, ${(quantile(during, 0.99) / quantile(idle, 0.99)).toFixed(2)}x p99`,
    );
  } finally {
    await db.destroy();
    await store.close();
  }
}

function mb(bytes: number): string {
  return `${Math.round(bytes / 1024 / 1024)} MB`;
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

/** SQLite, then PostgreSQL in a fresh schema of `postgresUrl` when given (`npm run bench` runs it too). */
export async function mailFanoutBench(postgresUrl: string | undefined): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "kairan-mail-fanout-"));
  console.log(
    `notification mail benchmark${quick ? " (--quick)" : ""}: ${BLOCKS} blocks of ${PER_BLOCK} posts per setting; load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(" ")}`,
  );
  try {
    const file = join(work, "kairan.sqlite");
    await runOn("SQLite", { kind: "sqlite", file }, () => openSqliteDatabase(file));
    if (postgresUrl) {
      const schema = `kairan_bench_${randomBytes(4).toString("hex")}`;
      await adminQuery(postgresUrl, `create schema ${schema}`);
      try {
        const url = new URL(postgresUrl);
        url.searchParams.set("options", `-c search_path=${schema}`);
        const config = { kind: "postgres" as const, url: url.toString() };
        await runOn("PostgreSQL", config, () => openPostgresDatabase(config));
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

if (process.argv[1]?.endsWith("mail-fanout.ts")) {
  const flag = process.argv.indexOf("--postgres");
  await mailFanoutBench(flag >= 0 ? process.argv[flag + 1] : process.env.KAIRAN_TEST_DATABASE_URL || undefined);
}
