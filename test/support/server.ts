import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { openLocalBlobStore } from "../../src/blobs/local.js";
import { loadConfig } from "../../src/config/config.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import type { Store } from "../../src/store/store.js";
import { TestClock } from "./clock.js";
import { Factories } from "./factories.js";

/** The production app on port 0 over a real SQLite file in a temporary directory. */
export interface TestServer {
  readonly url: string;
  readonly store: Store;
  readonly clock: TestClock;
  readonly app: FastifyInstance;
  readonly dataDir: string;
  readonly factories: Factories;
  close(): Promise<void>;
}

/** Boots a test server; call `close()` in `after`. */
export async function startTestServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "kairan-test-"));
  const config = loadConfig({ port: "0", data: dataDir, logLevel: "silent", noDemo: true }, {});
  const store = openSqliteStore(join(dataDir, "kairan.sqlite"));
  await store.migrate();
  const clock = new TestClock();
  const app = buildApp({ config, store, blobs: openLocalBlobStore(config.dataDir), clock });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    clock,
    app,
    dataDir,
    factories: new Factories(store, clock),
    async close() {
      await app.close();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
