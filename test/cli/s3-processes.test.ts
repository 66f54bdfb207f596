import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { TEST_DATABASE_URL, type TestSchema, createTestSchema } from "../support/backends.js";
import { type ServerProcess, runKairanAsync, startServerProcess } from "../support/cli.js";
import { TestClock } from "../support/clock.js";
import { Factories } from "../support/factories.js";
import { CLIENT_NS, atomText, entriesOf } from "../support/http.js";
import { patternByte, postMultipart } from "../support/multipart.js";
import { type TestS3, startTestS3 } from "../support/s3.js";

// `kairan serve` and `kairan file add` as operators run them, with files in an S3-compatible
// bucket (s3rver in this process). Each process gets its own --data directory, as on separate
// machines: only the bucket (and, for two processes, PostgreSQL) is shared.

const skip = TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL";

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

async function fetchBytes(
  url: string,
  token: string,
): Promise<{ status: number; length: string | null; bytes: Buffer }> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.status,
    length: response.headers.get("content-length"),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

// engines: both, because the S3 blob store is under test: one process over the default SQLite
// store, and two processes sharing one bucket over one PostgreSQL database (skipped without it).
describe("kairan serve with --blob-store s3://", () => {
  let s3: TestS3;
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "kairan-s3-proc-"));
    dirs.push(dir);
    return dir;
  };

  before(async () => {
    s3 = await startTestS3();
  });
  after(async () => {
    await s3.close();
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it("refuses to start with a bucket that does not exist: one message naming it, exit status 2", async () => {
    const args = [
      "--port",
      "0",
      "--data",
      dataDir(),
      "--no-demo",
      "--blob-store",
      "s3://no-such-bucket",
      "--s3-endpoint",
      s3.endpoint,
      "--s3-force-path-style",
    ];
    // The last line is ours; on Node 20 the AWS SDK prints its own NodeVersionSupportWarning before it.
    await assert.rejects(
      startServerProcess(args, s3.env),
      /server exited with 2; stderr:\n(.|\n)*^kairan: cannot use s3:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+: no such bucket\n$/m,
    );
  });

  it("loads the demo workspace's files into the bucket and serves them (SQLite)", async () => {
    const data = dataDir();
    const server = await startServerProcess(
      ["--port", "0", "--data", data, "--log-level", "warn", ...s3.args("demo")],
      s3.env,
    );
    try {
      const objects = await s3.list("demo");
      assert.ok(objects.length > 0, "the demo's files are objects");
      assert.deepEqual(filesUnder(join(data, "blobs")), [], "and nothing under --data/blobs");
      const download = await fetchBytes(
        `${server.url}/api/fileDownload/V2?id=GROUP,1:1,CABINET,1:1`,
        "alice-demo-token",
      );
      assert.equal(download.status, 200);
      assert.equal(download.length, String(download.bytes.length));
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  describe("two processes over one PostgreSQL", () => {
    let schema: TestSchema;
    let store: Store;
    let servers: ServerProcess[] = [];
    const prefix = "shared";

    before(async () => {
      if (skip) return;
      schema = await createTestSchema();
      const url = new URL(TEST_DATABASE_URL ?? "");
      url.searchParams.set("search_path", schema.name);
      const args = (data: string) => [
        "--port",
        "0",
        "--data",
        data,
        "--database",
        url.toString(),
        "--no-demo",
        "--log-level",
        "warn",
        ...s3.args(prefix),
      ];
      servers = await Promise.all([dataDir(), dataDir()].map((data) => startServerProcess(args(data), s3.env)));
      store = await openStore({ kind: "postgres", url: schema.url });
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await store?.close();
      await schema?.drop();
    });

    it("share files: an attachment uploaded through one downloads through the other", { skip }, async () => {
      const [one, two] = servers as [ServerProcess, ServerProcess];
      const f = new Factories(store, new TestClock(Date.now()));
      const alice = await f.user({ name: "Alice" });
      const bob = await f.user({ name: "Bob" });
      const group = await f.group([alice, bob]);
      const topicId = `GROUP,1:${group.id},BOARD,1:${(await f.topic(group, alice)).id}`;
      const size = 6 * 1024 * 1024 + 1;
      const answer = await postMultipart(`${one.url}/api/comment/V2`, alice.token, [
        {
          name: "default",
          text: `<feed ${CLIENT_NS}><id>${topicId}</id><entry><summary>shared</summary></entry></feed>`,
        },
        { name: "file0", fileName: "shared.bin", size, fill: 5 },
      ]);
      assert.equal(answer.status, 200, answer.text);
      const comment = atomText(entriesOf(answer.xml)[0]!, "id");
      const download = await fetchBytes(`${two.url}/api/fileDownload/V2?id=${comment},ATTACHMENT,1`, bob.token);
      assert.equal(download.status, 200);
      assert.equal(download.length, String(size));
      assert.equal(download.bytes.length, size);
      for (const i of [0, 1, 5 * 1024 * 1024, size - 1])
        assert.equal(download.bytes[i], patternByte(i, 5), `byte ${i}`);
    });

    it("share files added by `kairan file add` on a third machine", { skip }, async () => {
      const f = new Factories(store, new TestClock(Date.now()));
      const alice = await f.user({ name: "Alice" });
      const group = await f.group([alice]);
      const path = join(dataDir(), "report.txt");
      writeFileSync(path, "quarterly numbers");
      const url = new URL(TEST_DATABASE_URL ?? "");
      url.searchParams.set("search_path", schema.name);
      const added = await runKairanAsync(
        [
          "file",
          "add",
          "--group",
          `1:${group.id}`,
          "--author",
          alice.email,
          "--path",
          path,
          "--data",
          dataDir(),
          "--database",
          url.toString(),
          ...s3.args(prefix),
        ],
        s3.env,
      );
      assert.equal(added.status, 0, added.stderr);
      const id = (JSON.parse(added.stdout) as { id: string }).id;
      for (const server of servers) {
        const download = await fetchBytes(`${server.url}/api/fileDownload/V2?id=${id}`, alice.token);
        assert.equal(download.status, 200);
        assert.equal(download.bytes.toString(), "quarterly numbers");
      }
    });
  });
});
