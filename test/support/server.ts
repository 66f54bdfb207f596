import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import { openLocalBlobStore } from "../../src/blobs/local.js";
import { type StoreConfig, loadConfig } from "../../src/config/config.js";
import type { Store } from "../../src/store/store.js";
import { type Backend, openTestStore, testBackends } from "./backends.js";
import { TestClock } from "./clock.js";
import { Factories } from "./factories.js";

/** The production app on port 0 over a real database: a SQLite file, or a fresh PostgreSQL schema. */
export interface TestServer {
  readonly url: string;
  readonly backend: Backend;
  readonly store: Store;
  /** Where the store's rows live, for suites that read them behind the server's back (snapshots). */
  readonly storeConfig: StoreConfig;
  readonly clock: TestClock;
  readonly app: FastifyInstance;
  readonly dataDir: string;
  readonly factories: Factories;
  close(): Promise<void>;
}

/** Boots a test server on `backend` (default: the first of testBackends(), SQLite); call `close()` in `after`. */
export async function startTestServer(backend: Backend = testBackends()[0] ?? "sqlite"): Promise<TestServer> {
  const opened = await openTestStore(backend);
  const { store, dataDir } = opened;
  const config = { ...loadConfig({ port: "0", data: dataDir, logLevel: "silent", noDemo: true }, {}), store: opened.storeConfig };
  const clock = new TestClock();
  const app = buildApp({ config, store, blobs: openLocalBlobStore(config.dataDir), clock });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    backend,
    store,
    storeConfig: opened.storeConfig,
    clock,
    app,
    dataDir,
    factories: new Factories(store, clock),
    async close() {
      await app.close();
      await opened.close();
    },
  };
}
