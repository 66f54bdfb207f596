import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import pg from "pg";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema } from "../support/backends.js";
import { runKairanHere, startServeHere } from "../support/cli-in-process.js";
import { CLIENT_NS, atomText, entriesOf, request } from "../support/http.js";
import { type TestS3, startTestS3 } from "../support/s3.js";

// `kairan copy`: the demo workspace seeded into SQLite, copied into a fresh PostgreSQL schema,
// must be served byte for byte the same by both (after replacing each server's base URL). The
// commands and the servers run in this process (test/support/cli-in-process.ts); what a process
// adds (its exit status, its standard error) is the same for every command: bad-input.test.ts.

const skip = TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL";
// node:test awaits its tests itself: the promise `it` returns is the runner's, not ours to hold.
const pgIt = (name: string, fn: () => Promise<void> | void): void => void it(name, { skip }, fn);
const DEMO = new URL("../../seeds/demo.json", import.meta.url).pathname;
const TOKEN = "alice-demo-token";
/** Every byte value, twice: a picture must arrive byte for byte. */
const PICTURE = Buffer.from([...Array(256).keys(), ...Array(256).keys()]);

/** The first user's picture row and preferences in the copied PostgreSQL schema. */
async function accountRows(url: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const picture = await client.query(
      "select user_id::int, media_type, bytes, etag, updated_at::int from user_pictures",
    );
    const preferences = await client.query("select lang, time_zone from users where id = 1");
    return { picture: picture.rows[0], preferences: preferences.rows[0] };
  } finally {
    await client.end();
  }
}

describe("kairan copy --from DIR --to postgres://", () => {
  const dirs: string[] = [];
  let from: string;
  let filesTo: string;
  let schema: TestSchema;
  let topics: string[];
  const copy = (extra: readonly string[] = []) => runKairanHere(["copy", "--from", from, "--to", schema.url, ...extra]);

  before(async () => {
    if (skip) return;
    [from, filesTo] = [0, 1].map(() => mkdtempSync(join(tmpdir(), "kairan-copy-")) as string) as [string, string];
    dirs.push(from, filesTo);
    const seeded = await runKairanHere(["seed", DEMO, "--data", from]);
    assert.equal(seeded.status, 0, seeded.stderr);
    topics = Object.values((JSON.parse(seeded.stdout) as { topics: Record<string, string> }).topics);
    mkdirSync(join(from, "blobs", "ab"), { recursive: true });
    writeFileSync(join(from, "blobs", "ab", "abcdef"), "file bytes");
    // A picture (bytes: SQLite's blob into PostgreSQL's bytea) and a person's language and zone.
    const db = new SQLite(join(from, "kairan.sqlite"));
    db.prepare("insert into user_pictures values (1, 'image/png', ?, 'etag-1', 5)").run(PICTURE);
    db.prepare("update users set lang = 'en', time_zone = 'Asia/Tokyo' where id = 1").run();
    db.close();
    schema = await createTestSchema();
  });
  after(async () => {
    await schema?.drop();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  pgIt("refuses to start without --files-to when the source holds stored files (exit 2)", async () => {
    const result = await copy();
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /--files-to/);
  });

  pgIt("copies every table and the stored files; both engines then serve identical feeds", async () => {
    const result = await copy(["--files-to", filesTo]);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^topics\s+4 rows$/m);
    assert.equal(readFileSync(join(filesTo, "blobs", "ab", "abcdef"), "utf8"), "file bytes");
    const sqlite = await startServeHere(["--port", "0", "--data", from, "--no-demo", "--log-level", "warn"]);
    const postgres = await startServeHere([
      "--port",
      "0",
      "--data",
      filesTo,
      "--database",
      schema.url,
      "--no-demo",
      "--log-level",
      "warn",
    ]);
    try {
      const paths = [
        "/api/group/V2",
        "/api/board/V2?group=1:1&embed-comment=true",
        "/api/boardFolder/V2?group=1:1",
        ...topics.map((id) => `/api/board/V2?entry=${encodeURIComponent(id)}&embed-comment=true`),
      ];
      for (const path of paths) {
        const [a, b] = await Promise.all(
          [sqlite, postgres].map(async (server) => {
            const answer = await request(`${server.url}${path}`, { token: TOKEN });
            assert.equal(answer.status, 200, `${path}: ${answer.text}`);
            // A delta-sync cursor numbers changes per database: the copy's history starts afresh
            // (docs/api.md "Delta sync"), so only the cursors may differ.
            return answer.text.replaceAll(server.url, "{base_url}").replace(/changes-since=[\w-]+/g, "changes-since=…");
          }),
        );
        assert.equal(b, a, path);
      }
      assert.equal(await newTopicId(postgres), await newTopicId(sqlite), "ids continue after the copied ones");
      assert.deepEqual(await accountRows(schema.url), {
        picture: { user_id: 1, media_type: "image/png", bytes: PICTURE, etag: "etag-1", updated_at: 5 },
        preferences: { lang: "en", time_zone: "Asia/Tokyo" },
      });
    } finally {
      await Promise.all([sqlite.stop(), postgres.stop()]);
    }
  });

  pgIt("refuses a non-empty target with a clear message and exit status 2", async () => {
    const result = await copy(["--files-to", mkdtempSync(join(tmpdir(), "kairan-copy-"))]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /target database is not empty \(table users has rows\)/);
  });

  it("describes itself with --help and refuses bad usage with exit 2", async () => {
    assert.match((await runKairanHere(["copy", "--help"])).stdout, /--files-to DIR/);
    assert.match((await runKairanHere(["--help"])).stdout, /copy/);
    assert.equal((await runKairanHere(["copy", "--from", "x"])).status, 2);
    assert.equal((await runKairanHere(["copy", "--from", "x", "--to", "mysql://x"])).status, 2);
  });
});

describe("kairan copy --from DIR --to postgres:// --blob-store s3://", () => {
  const dirs: string[] = [];
  let s3: TestS3;
  let from: string;
  let schema: TestSchema;
  let files: string[];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "kairan-copy-"));
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    s3 = await startTestS3();
    if (skip) return;
    from = tempDir();
    const seeded = await runKairanHere(["seed", DEMO, "--data", from]);
    assert.equal(seeded.status, 0, seeded.stderr);
    files = Object.values((JSON.parse(seeded.stdout) as { files: Record<string, string> }).files);
    writeFileSync(join(from, "blobs", ".DS_Store"), "not ours");
    schema = await createTestSchema();
  });
  after(async () => {
    await s3.close();
    await schema?.drop();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  pgIt(
    "uploads every stored file before the rows: a server on PostgreSQL and the bucket serves the same bytes",
    async () => {
      const failed = await runKairanHere(
        [
          "copy",
          "--from",
          from,
          "--to",
          schema.url,
          ...s3.args("moved").map((arg) => arg.replace(/^s3:\/\/[^/]+/, "s3://no-such-bucket")),
        ],
        s3.env,
      );
      assert.equal(failed.status, 2, failed.stderr);
      assert.match(failed.stderr, /^kairan: cannot use s3:\/\/no-such-bucket at .*: no such bucket$/m);
      const result = await runKairanHere(["copy", "--from", from, "--to", schema.url, ...s3.args("moved")], s3.env);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /^skipped .*\.DS_Store: not a stored file$/m);
      const local = readdirSync(join(from, "blobs"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name !== ".DS_Store")
        .map((entry) => `moved/${entry.name}`)
        .sort();
      assert.ok(local.length >= 4, "the demo's versions and thumbnail");
      assert.match(result.stdout, new RegExp(`^${local.length} stored files copied to s3://${s3.bucket}/moved$`, "m"));
      assert.deepEqual(await s3.list("moved"), local);
      const sqlite = await startServeHere(["--port", "0", "--data", from, "--no-demo", "--log-level", "warn"]);
      const postgres = await startServeHere(
        [
          "--port",
          "0",
          "--data",
          tempDir(),
          "--database",
          schema.url,
          "--no-demo",
          "--log-level",
          "warn",
          ...s3.args("moved"),
        ],
        s3.env,
      );
      try {
        for (const id of files) {
          for (const query of ["", "&version=1", "&thumbnail=true"]) {
            const [a, b] = await Promise.all(
              [sqlite, postgres].map(async (server) => {
                const response = await fetch(`${server.url}/api/fileDownload/V2?id=${id}${query}`, {
                  headers: { authorization: `Bearer ${TOKEN}` },
                });
                return {
                  status: response.status,
                  length: response.headers.get("content-length"),
                  bytes: Buffer.from(await response.arrayBuffer()),
                };
              }),
            );
            assert.deepEqual(b, a, `${id}${query}`);
          }
        }
      } finally {
        await Promise.all([sqlite.stop(), postgres.stop()]);
      }
    },
  );

  it("refuses --files-to together with --blob-store, and a bad --blob-store, with exit 2", async () => {
    const both = await runKairanHere([
      "copy",
      "--from",
      "x",
      "--to",
      "postgres://h/db",
      "--files-to",
      "y",
      "--blob-store",
      "s3://abc",
    ]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /either --files-to DIR or --blob-store/);
    const bad = await runKairanHere(["copy", "--from", "x", "--to", "postgres://h/db", "--blob-store", "s3://"]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--blob-store \/ KAIRAN_BLOB_STORE: must be s3:\/\/BUCKET/);
  });
});

async function newTopicId(server: { readonly url: string }): Promise<string | undefined> {
  const body = `<feed ${CLIENT_NS}><entry><cbl:group id="1:1"/><title>after copy</title></entry></feed>`;
  const answer = await request(`${server.url}/api/board/V2`, { body, token: TOKEN });
  assert.equal(answer.status, 200, answer.text);
  return atomText(entriesOf(answer.xml)[0]!, "id");
}
