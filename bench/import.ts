// The import's speed (`npm run bench:import [-- --comments N] [--messages M]`): a board export of N
// comments (default 100,000: 1,000 topics of 100 comments, by 50 people of a member list), and
// with --messages a chat room's text file of M messages (default 0: none), imported by
// `importCybozuLive` into a fresh SQLite database, and into PostgreSQL when
// KAIRAN_BENCH_DATABASE_URL is set. Prints the time to read the files and the time of the whole
// import. The target: 100,000 comments in under a minute.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { systemClock } from "../src/clock.js";
import { readExport } from "../src/domain/cybozulive/bundle.js";
import { importCybozuLive } from "../src/services/import/cybozulive.js";
import { openStore } from "../src/store/open.js";

const { values } = parseArgs({
  options: { comments: { type: "string", default: "100000" }, messages: { type: "string", default: "0" } },
});
const COMMENTS = Number(values.comments);
const MESSAGES = Number(values.messages);
const PER_TOPIC = 100;
const PEOPLE = 50;
const DASH = "-".repeat(50);

const quote = (text: string) => `"${text.replaceAll('"', '""').replaceAll("\n", "\r\n")}"`;
const name = (i: number) => `姓${i % PEOPLE} 名${i % PEOPLE}`;

/** The export: a member list and a board whose cells hold every comment, newest first. */
function exportFiles(): { name: string; bytes: Buffer }[] {
  const members = ['"姓","名","よみがな姓","よみがな名","メールアドレス"'];
  for (let i = 0; i < PEOPLE; i++) members.push([`姓${i}`, `名${i}`, "", "", `p${i}@example.com`].map(quote).join(","));
  const board = ['"ID","タイトル","本文","作成者","作成日時","更新者","更新日時","コメント"'];
  for (let t = 0; t < Math.ceil(COMMENTS / PER_TOPIC); t++) {
    const count = Math.min(PER_TOPIC, COMMENTS - t * PER_TOPIC);
    const cell: string[] = [];
    for (let n = count; n >= 1; n--)
      cell.push(
        DASH,
        `${n}: ${name(t + n)} 2018/3/1 (木) ${String(n % 24).padStart(2, "0")}:00`,
        "",
        `comment ${n}`,
        "",
      );
    cell.push(DASH);
    const row = [`1:${t + 1}`, `topic ${t + 1}`, "body", name(t), "2018/3/1 00:00", name(t), "2018/3/1 23:00"];
    board.push([...row, cell.join("\n")].map(quote).join(","));
  }
  const text = (lines: string[]) => Buffer.from(lines.join("\r\n") + "\r\n");
  const files = [
    { name: "live_メンバー名簿_20180305.csv", bytes: text(members) },
    { name: "live_掲示板_20180305.csv", bytes: text(board) },
  ];
  if (MESSAGES === 0) return files;
  const room = ["雑談", "=".repeat(80), "タイトル: 雑談", "", "bench", "=".repeat(80)];
  for (let m = 1; m <= MESSAGES; m++) {
    const minute = Math.floor(m / 10);
    const time = `2018/3/${1 + Math.floor(minute / 1440)} ${Math.floor((minute % 1440) / 60)}:${String(minute % 60).padStart(2, "0")}`;
    room.push(`${m}: ${name(m)}`, time, "", `message ${m}`, "-".repeat(80));
  }
  return [...files, { name: "chat.txt", bytes: text(room) }];
}

async function run(label: string, config: Parameters<typeof openStore>[0]): Promise<void> {
  const files = exportFiles();
  const readStart = performance.now();
  readExport(files);
  const readMs = performance.now() - readStart;
  const store = await openStore(config);
  try {
    await store.migrate();
    const start = performance.now();
    const report = await importCybozuLive(
      { store, blobs: undefined as never, clock: systemClock },
      { files, target: { groupName: "bench" }, timeZone: "Asia/Tokyo", dryRun: false },
    );
    const ms = performance.now() - start;
    console.log(
      `${label}: ${report.created.comments} comments, ${report.created.topics} topics, ` +
        `${report.created.chatMessages} chat messages: ` +
        `read ${(readMs / 1000).toFixed(1)} s, import ${(ms / 1000).toFixed(1)} s ` +
        `(${Math.round((report.created.comments + report.created.chatMessages) / (ms / 1000))} comments and messages/s)`,
    );
  } finally {
    await store.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), "kairan-bench-import-"));
try {
  await run("sqlite", { kind: "sqlite", file: join(dir, "kairan.sqlite") });
  const url = process.env.KAIRAN_BENCH_DATABASE_URL;
  if (url) await run("postgres", { kind: "postgres", url });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
