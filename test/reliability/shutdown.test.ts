// test-run: serial: its grace periods are real seconds, and it writes at full speed; beside other files it would load the machine they share
// Graceful shutdown of a real `kairan serve`: SIGTERM during uploads and writes. In-flight requests
// finish (or, past the grace period, are answered 503), new connections are refused, requests that
// arrive meanwhile get a 503 <error>, the process exits, and no temporary file is left behind. And a
// start after a crash removes what the dead process left in <data>/tmp.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { NS } from "../../src/atom/namespaces.js";
import { child } from "../../src/atom/parse.js";
import { type Backend, createTestSchema, testBackends } from "../support/backends.js";
import { eventually, filesUnder } from "../support/eventually.js";
import { type ServerProcess, startServerProcess } from "../support/cli.js";
import { CLIENT_NS, atomText, entriesOf, request } from "../support/http.js";
import { shortOrLong } from "../support/long.js";
import { type Part, multipartHead, multipartLength, multipartStream, patternByte } from "../support/multipart.js";
import { type RawAnswer, type RawConnection, openRaw } from "../support/raw-http.js";
import { missingAcks, startWriters } from "../support/writers.js";

const TOKEN = "alice-demo-token";
const TOPIC = "GROUP,1:1,BOARD,1:1";
const FILE_SIZE = 200_000;

function uploadParts(text: string): Part[] {
  return [
    {
      name: "default",
      text: `<feed ${CLIENT_NS}><cbl:operation type="insert"/><id>${TOPIC}</id><entry><summary type="text">${text}</summary></entry></feed>`,
    },
    { name: "file0", fileName: "report.bin", size: FILE_SIZE, fill: 7 },
  ];
}

/** A hang guard for tests that wait on processes: never a speed assertion. */
const HANG = { timeout: 300_000 };

describe("graceful shutdown (SIGTERM)", () => {
  it(
    "lets an upload in flight finish, refuses new connections, answers a request arriving meanwhile 503, exits 0",
    HANG,
    async () => {
      await withData("sqlite", async (args, dataDir) => {
        const server = await startServerProcess([...args, "--shutdown-grace", "60"]);
        const exited = exitOf(server);
        const { connection, rest } = await startUpload(server, dataDir, uploadParts("kept through shutdown"));
        // A request whose headers are on their way when the signal comes: it arrives during the drain.
        const late = await openRaw(server.url);
        late.write(`GET /api/group/V2 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\n`);

        server.child.kill("SIGTERM");
        await eventually(() => connectionRefused(server.url), "new connections are refused");
        late.write("\r\n");
        assertShuttingDown(await late.response);

        connection.write(rest);
        const answer = await connection.response;
        assert.equal(answer.status, 200, answer.body);
        assert.equal(answer.headers.get("connection"), "close", "the server says it will not take another request");
        assert.equal(await exited, 0);
        assert.deepEqual(filesUnder(join(dataDir, "tmp")), [], "no temporary file left");

        const again = await startServerProcess(args);
        try {
          await assertUploadKept(again, "kept through shutdown");
        } finally {
          await again.stop();
        }
      });
    },
  );

  it(
    "answers 503 to an upload still incomplete when the grace period ends, deletes its file, and exits",
    HANG,
    async () => {
      await withData("sqlite", async (args, dataDir) => {
        const server = await startServerProcess([...args, "--shutdown-grace", "0.5"]);
        const exited = exitOf(server);
        const { connection } = await startUpload(server, dataDir, uploadParts("never finished"));
        server.child.kill("SIGTERM");
        assertShuttingDown(await connection.response);
        await connection.closed;
        assert.equal(await exited, 0);
        assert.deepEqual(filesUnder(join(dataDir, "tmp")), [], "no temporary file left");
        const again = await startServerProcess(args);
        try {
          const comments = await request(`${again.url}/api/comment/V2?entry=${TOPIC}&max-results=100`, {
            token: TOKEN,
          });
          assert.ok(!comments.text.includes("never finished"), "the refused upload left no comment");
        } finally {
          await again.stop();
        }
      });
    },
  );

  for (const backend of testBackends()) {
    it(
      `keeps every write answered 200 when stopped under load, and refuses the rest cleanly [${backend}]`,
      HANG,
      async (t) => {
        await withData(backend, async (args) => {
          let acknowledged = 0;
          const all = [];
          for (let round = 0; round < shortOrLong(1, 4); round++) {
            const server = await startServerProcess(args);
            const exited = exitOf(server);
            const load = startWriters(server.url, {
              groupId: "1:1",
              tokens: [TOKEN, "bob-demo-token"],
              writers: shortOrLong(4, 8),
            });
            await eventually(() => load.acks.length >= shortOrLong(30, 300), "the writers are writing");
            server.child.kill("SIGTERM");
            assert.equal(await exited, 0);
            await load.done;
            for (const refusal of load.refusals.filter((r) => r.status !== "no answer")) {
              assert.equal(refusal.status, 503, refusal.body);
              assert.match(refusal.body, /<error code="SHUTTING_DOWN">/);
              assert.equal(refusal.connection, "close");
            }
            acknowledged += load.acks.length;
            all.push(...load.acks);
          }
          const server = await startServerProcess(args);
          try {
            const missing = await missingAcks(server.url, all, TOKEN);
            t.diagnostic(
              `${backend}: ${acknowledged} writes acknowledged before SIGTERM, ${acknowledged - missing.length} found intact`,
            );
            assert.deepEqual(missing, []);
          } finally {
            await server.stop();
          }
        });
      },
    );
  }
});

describe("temporary files after a crash", () => {
  it(
    "removes at start what a killed process left in <data>/tmp, and keeps what a live process is writing",
    HANG,
    async () => {
      await withData("sqlite", async (args, dataDir) => {
        const server = await startServerProcess(args);
        const { connection } = await startUpload(server, dataDir, uploadParts("cut off by a crash"));
        assert.equal(await server.stop("SIGKILL"), null);
        await connection.closed;
        assert.equal(filesUnder(join(dataDir, "tmp")).length, 1, "the killed process left its partial upload");

        // Another process of this machine that is alive (this test's own), writing an upload now...
        const live = join(dataDir, "tmp", `${hostname()}~${process.pid}~cafe0001`);
        mkdirSync(live, { recursive: true });
        writeFileSync(join(live, "busy.part"), "in progress");
        // ...and a stray file nobody has touched for an hour.
        const stray = join(dataDir, "tmp", "old.part");
        writeFileSync(stray, "old");
        const anHourAgo = new Date(Date.now() - 3_600_000);
        utimesSync(stray, anHourAgo, anHourAgo);

        const again = await startServerProcess(args);
        try {
          assert.deepEqual(filesUnder(join(dataDir, "tmp")), [join(live, "busy.part")]);
          assert.match(again.stderr(), /removed 2 temporary upload\(s\) left by a stopped process/);
        } finally {
          await again.stop();
        }
      });
    },
  );
});

/** Sends an upload's head and half its body, and waits until the server is writing the file. */
async function startUpload(
  server: ServerProcess,
  dataDir: string,
  parts: readonly Part[],
): Promise<{ connection: RawConnection; rest: Buffer }> {
  const chunks: Buffer[] = [];
  for await (const chunk of multipartStream(parts)) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const connection = await openRaw(server.url);
  connection.write(multipartHead("/api/comment/V2", "x", TOKEN, multipartLength(parts)));
  connection.write(body.subarray(0, body.length / 2));
  await eventually(() => filesUnder(join(dataDir, "tmp")).length > 0, "the upload is being received");
  return { connection, rest: body.subarray(body.length / 2) };
}

/** The comment and its attachment, byte for byte, on a restarted server. */
async function assertUploadKept(server: ServerProcess, text: string): Promise<void> {
  const feed = await request(`${server.url}/api/comment/V2?entry=${TOPIC}&max-results=100`, { token: TOKEN });
  const entry = entriesOf(feed.xml).find((e) => atomText(e, "summary") === text);
  assert.ok(entry, "the comment is there");
  const attachment = child(entry, NS.cbl, "attachment");
  assert.equal(attachment?.attributes.get("size"), String(FILE_SIZE));
  const download = await fetch(
    `${server.url}/api/fileDownload/V2?id=${encodeURIComponent(attachment?.attributes.get("id") ?? "")}`,
    { headers: { authorization: `Bearer ${TOKEN}` } },
  );
  const bytes = Buffer.from(await download.arrayBuffer());
  assert.equal(download.status, 200);
  assert.ok(
    bytes.equals(Buffer.from(Array.from({ length: FILE_SIZE }, (_, i) => patternByte(i, 7)))),
    "the file is intact",
  );
}

function assertShuttingDown(answer: RawAnswer): void {
  assert.equal(answer.status, 503, answer.body);
  assert.equal(answer.xml.attributes.get("code"), "SHUTTING_DOWN");
  assert.equal(answer.headers.get("connection"), "close");
  assert.equal(answer.headers.get("retry-after"), "5");
}

/** The process's exit code, whenever it comes. */
function exitOf(server: ServerProcess): Promise<number | null> {
  return new Promise((resolve) => server.child.once("exit", (code) => resolve(code)));
}

function connectionRefused(url: string): Promise<boolean> {
  const { hostname: host, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), host);
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** Runs `work` with server arguments over a fresh data directory (and PostgreSQL schema). */
async function withData(backend: Backend, work: (args: string[], dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-shutdown-"));
  const schema = backend === "postgres" ? await createTestSchema() : undefined;
  try {
    await work(
      [
        "--port",
        "0",
        "--data",
        dataDir,
        "--log-level",
        "warn",
        "--no-rate-limit",
        ...(schema ? ["--database", schema.url] : []),
      ],
      dataDir,
    );
  } finally {
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
