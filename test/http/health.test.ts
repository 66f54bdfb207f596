// GET /healthz and GET /readyz over real HTTP: plain answers without credentials, outside the
// rate limits; /readyz answers 503 with one line when the database does not answer.
import assert from "node:assert/strict";
import { type AddressInfo, type Server, type Socket, createServer } from "node:net";
import { tmpdir } from "node:os";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { openBlobStore } from "../../src/blobs/open.js";
import { loadConfig } from "../../src/config/config.js";
import { openPostgresStore } from "../../src/store/postgres/open.js";
import type { Store } from "../../src/store/store.js";
import { describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";
import { request } from "../support/http.js";
import { type TestServer, startTestServer } from "../support/server.js";

/** The production app over `store`, listening on port 0. */
async function appOver(store: Store, dataDir: string): Promise<{ app: FastifyInstance; url: string }> {
  const config = loadConfig({ port: "0", data: dataDir, logLevel: "silent", noDemo: true }, {});
  const app = buildApp({
    config,
    store,
    blobs: await openBlobStore({ kind: "local" }, dataDir),
    clock: new TestClock(),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describeEachBackend("health checks", (backend) => {
  let server: TestServer;
  before(async () => {
    // An address may send 3 requests a minute: the health checks must not count against it.
    server = await startTestServer(backend, { limits: { noRateLimit: false, rateLimitAddress: "3" } });
  });
  after(() => server?.close());

  it("answers /healthz and /readyz in plain text, without credentials", async () => {
    for (const [path, line] of [
      ["/healthz", "ok\n"],
      ["/readyz", "ready\n"],
    ] as const) {
      const answer = await request(`${server.url}${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.text, line);
      assert.equal(answer.headers.get("content-type"), "text/plain; charset=utf-8");
      assert.equal(answer.headers.get("cache-control"), "no-store");
      assert.equal((await request(`${server.url}${path}`, { method: "HEAD" })).status, 200);
      const post = await request(`${server.url}${path}`, { method: "POST", body: "" });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get("allow"), "GET");
    }
  });

  it("is outside the request rate limit, which still holds for everything else", async () => {
    for (let n = 0; n < 10; n++) {
      assert.equal((await request(`${server.url}/healthz`)).status, 200);
      assert.equal((await request(`${server.url}/readyz`)).status, 200);
    }
    const statuses = [];
    for (let n = 0; n < 4; n++) statuses.push((await request(`${server.url}/api/group/V2`)).status);
    assert.equal(statuses.at(-1), 429, `the API is still limited: ${statuses.join(", ")}`);
    assert.equal((await request(`${server.url}/healthz`)).status, 200);
  });

  it("answers /readyz 503 with one line once the database is gone, while /healthz stays 200", async () => {
    const opened = await openTestStore(backend);
    const { app, url } = await appOver(opened.store, opened.dataDir);
    try {
      assert.equal((await request(`${url}/readyz`)).status, 200);
      await opened.store.close();
      const answer = await request(`${url}/readyz`);
      assert.equal(answer.status, 503);
      assert.equal(answer.text, "not ready: the database refused a query (see the server log)\n");
      assert.equal((await request(`${url}/healthz`)).status, 200);
    } finally {
      await app.close();
    }
  });
});

// engines: postgres only, because the stalled database is a listener that accepts a PostgreSQL
// connection and never answers; a SQLite file has no connection to stall.
describe("health checks: a database that accepts the connection and never answers", () => {
  let silent: Server;
  let port: number;
  const sockets = new Set<Socket>();
  before(async () => {
    // A real TCP listener that says nothing: PostgreSQL's start-up answer never comes.
    silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    port = (silent.address() as AddressInfo).port;
  });
  after(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it("answers /readyz 503 after its timeout", async () => {
    // The pool itself, without openStore's check at start (which refuses such a database): the
    // database of a running server that stops answering. Its connections give up after 3 s
    // (past /readyz's 2 s; 30 s in production), so that the app's mail sender, whose pass waits for one, lets it close.
    const store = openPostgresStore({ url: `postgres://kairan@127.0.0.1:${port}/kairan`, connectTimeoutMs: 3000 });
    const { app, url } = await appOver(store, tmpdir());
    try {
      const answer = await request(`${url}/readyz`);
      assert.equal(answer.status, 503);
      assert.equal(answer.text, "not ready: the database did not answer within 2000 ms\n");
    } finally {
      await app.close();
      for (const socket of sockets) socket.destroy();
      await store.close().catch(() => undefined);
    }
  });
});
