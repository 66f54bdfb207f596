// A full disk says so: a real `kairan serve` keeps its SQLite database and its files on a small
// tmpfs, which is then filled. Writes are answered 507 STORAGE_FULL (API and web page alike, a file
// upload too), the log says "storage full" in one line per refusal and never the rollback error
// that used to hide it, reads are still served, and once space is freed writes work again.
// Mounting needs root (or CAP_SYS_ADMIN): without it the test is skipped and says why. A full
// PostgreSQL disk cannot be made here: its SQLSTATE is mapped by the unit test in
// test/http/storage-full.test.ts.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startServerProcess } from "../support/cli.js";
import { postMultipart } from "../support/multipart.js";
import { WebClient } from "../support/web.js";

/** The demo workspace (loaded at the first start): group 1:1, Alice's token and password. */
const DEMO = { group: "1:1", token: "alice-demo-token", email: "alice@example.com", password: "kairan-demo" };
const TMPFS_SIZE = "48m";
/** Topics written at once while filling: batched commits (savepoints) meet the full disk too. */
const CONCURRENT = 4;
/** A bound on the writes that fill what the filler file left: far more than the WAL can take. */
const MAX_WRITES = 2000;

/** A topic's text of nearly its 20,000 characters. */
const FILLER_TEXT = "words that fill pages ".repeat(900);

const ATOM = 'xmlns="http://www.w3.org/2005/Atom" xmlns:cbl="http://schemas.cybozulive.com/common/2010"';

/** Mounts a tmpfs of `size` on `dir`; the reason when it cannot (not root, no CAP_SYS_ADMIN, a container). */
function mountTmpfs(dir: string, size: string): string | undefined {
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { encoding: "utf8" });
  if (mounted.error) return `mount could not run: ${mounted.error.message}`;
  return mounted.status === 0 ? undefined : `mount -t tmpfs failed (${mounted.status}): ${mounted.stderr.trim()}`;
}

/** Writes zeros into `path` until the file system has no byte left. */
function fillUp(path: string): void {
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let size = chunk.length; size >= 1;) {
      try {
        writeSync(fd, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
}

function postTopic(url: string, n: number): Promise<Response> {
  const body =
    `<entry ${ATOM}><cbl:group id="${DEMO.group}"/><title>Filler ${n}</title>` +
    `<summary type="text">${FILLER_TEXT}${n}</summary></entry>`;
  return fetch(`${url}/api/board/V2`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO.token}`, "content-type": "application/atom+xml" },
    body,
  });
}

describe("a full disk [sqlite]", () => {
  it("answers writes 507 STORAGE_FULL, logs it, keeps serving reads, and writes again once space is freed", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "kairan-full-"));
    const refused = mountTmpfs(dir, TMPFS_SIZE);
    if (refused !== undefined) {
      rmSync(dir, { recursive: true, force: true });
      const reason = `cannot mount a tmpfs here, so no disk can be filled: ${refused}`;
      t.diagnostic(reason);
      console.log(`# SKIPPED: ${reason}`);
      t.skip(reason);
      return;
    }
    const filler = join(dir, "filler");
    const server = await startServerProcess(["--port", "0", "--data", dir, "--log-level", "info", "--no-rate-limit"]);
    try {
      const web = new WebClient(server.url);
      await web.signIn(DEMO.email, DEMO.password);
      await web.get(`/g/${DEMO.group}/board/new`);
      assert.equal((await postTopic(server.url, 0)).status, 200, "writes work before the disk fills");
      fillUp(filler);

      const statuses: number[] = [];
      let full: { status: number; type: string; text: string } | undefined;
      for (let n = 1; n <= MAX_WRITES && full === undefined; n += CONCURRENT) {
        const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => postTopic(server.url, n + i)));
        for (const answer of answers) {
          statuses.push(answer.status);
          const text = await answer.text();
          if (answer.status !== 200)
            full ??= { status: answer.status, type: answer.headers.get("content-type")!, text };
        }
      }
      assert.ok(full, `the disk never filled in ${MAX_WRITES} writes`);
      assert.deepEqual(
        statuses.filter((s) => s !== 200 && s !== 507),
        [],
        "every write is answered 200 or 507, never a fault",
      );
      assert.equal(full.status, 507, full.text);
      assert.match(full.type, /^application\/xml/);
      assert.match(full.text, /<error code="STORAGE_FULL">[^<]+<\/error>/);

      // As large as the writes that filled the disk. One may still fit: SQLite reuses its write-ahead
      // log from the start once a checkpoint has copied it into the database, which needs no new
      // block, so the form is sent until the log has grown again (each answer a redirect or a 507).
      let fitted = 0;
      let page = await web.post(`/g/${DEMO.group}/board/new`, { title: "While full", body: FILLER_TEXT });
      while (page.status === 303 && ++fitted < MAX_WRITES)
        page = await web.post(`/g/${DEMO.group}/board/new`, { title: `While full ${fitted}`, body: FILLER_TEXT });
      assert.equal(page.status, 507, `the web says it too (after ${fitted} that fitted)`);
      assert.match(page.html, /storage is full/);

      const upload = await postMultipart(`${server.url}/api/comment/V2`, DEMO.token, [
        {
          name: "default",
          text: `<feed ${ATOM}><cbl:operation type="insert"/><id>GROUP,${DEMO.group},BOARD,1:1</id><entry><summary type="text">a file</summary></entry></feed>`,
        },
        { name: "file0", fileName: "big.bin", size: 2 * 1024 * 1024 },
      ]);
      assert.equal(upload.status, 507, `a file upload on a full disk: ${upload.text}`);
      assert.equal(upload.xml.attributes.get("code"), "STORAGE_FULL");

      const read = await fetch(`${server.url}/api/board/V2?group=${DEMO.group}&max-results=1`, {
        headers: { authorization: `Bearer ${DEMO.token}` },
      });
      assert.equal(read.status, 200, "reads are still served");
      await read.arrayBuffer();

      const log = `${server.stdout()}\n${server.stderr()}`.split("\n");
      const fullLines = log.filter((line) => line.includes("storage full"));
      assert.ok(fullLines.length >= 3, `one "storage full" line per refusal:\n${log.slice(-20).join("\n")}`);
      assert.match(fullLines[0]!, /"level":50/, "logged as an error");
      assert.match(fullLines.join("\n"), /SQLITE_FULL/, "the engine's own code is named");
      assert.match(fullLines.join("\n"), /ENOSPC/, "so is the file system's, for the upload");
      assert.deepEqual(
        log.filter((line) => /cannot rollback|no such savepoint|request failed|page failed/.test(line)),
        [],
        "no rollback error hides the full disk, and it is not logged as a fault",
      );

      rmSync(filler);
      const again = await postTopic(server.url, MAX_WRITES + 1);
      assert.equal(again.status, 200, `writes work again once space is freed: ${await again.text()}`);
    } finally {
      await server.stop();
      const unmounted = spawnSync("umount", [dir], { encoding: "utf8" });
      assert.equal(unmounted.status, 0, `umount ${dir}: ${unmounted.stderr}`);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
