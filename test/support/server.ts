import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { BlobStore } from "../../src/blobs/blob-store.js";
import { openBlobStore } from "../../src/blobs/open.js";
import { type BlobStoreConfig, type StoreConfig, loadConfig } from "../../src/config/config.js";
import type { LimitFlags } from "../../src/config/limits.js";
import type { Store } from "../../src/store/store.js";
import { type Backend, openTestStore, testBackends } from "./backends.js";
import { TestClock } from "./clock.js";
import { Factories } from "./factories.js";

/** The production app on port 0 over a real database: a SQLite file, or a fresh PostgreSQL schema. */
export interface TestServer {
  readonly url: string;
  readonly backend: Backend;
  readonly store: Store;
  /** Where the store is, to open a second connection to the same database. */
  readonly storeConfig: StoreConfig;
  readonly clock: TestClock;
  readonly app: FastifyInstance;
  readonly dataDir: string;
  /** The server's own blob store: local under dataDir, or the S3 bucket it was started with. */
  readonly blobs: BlobStore;
  readonly factories: Factories;
  close(): Promise<void>;
}

/**
 * Boots a test server on `backend` (default: the first of testBackends(), SQLite); call `close()` in `after`.
 * Its files go to `options.blobStore` (default: under its data directory).
 * Request rate limiting is off unless `options.limits` turns it on (`noRateLimit: false`): suites
 * send hundreds of requests a second from one address, which is what the limit exists to refuse.
 * Every other limit has its production default unless `options.limits` sets it.
 * `publicUrl` and `locale` are the command-line values of those names. KAIRAN_TEST_LOG (a pino
 * level) shows the server's log while debugging a test.
 */
export async function startTestServer(
  backend: Backend = testBackends()[0] ?? "sqlite",
  options: { readonly blobStore?: BlobStoreConfig; readonly limits?: LimitFlags; readonly publicUrl?: string; readonly locale?: string } = {},
): Promise<TestServer> {
  const { blobStore = { kind: "local" }, limits = {}, publicUrl, locale } = options;
  const opened = await openTestStore(backend);
  const { store, dataDir } = opened;
  const logLevel = process.env.KAIRAN_TEST_LOG ?? "silent";
  const flags = { port: "0", data: dataDir, logLevel, noDemo: true, publicUrl, locale, limits: { noRateLimit: true, ...limits } };
  const config = { ...loadConfig(flags, {}), store: opened.storeConfig, blobStore };
  const clock = new TestClock();
  const blobs = await openBlobStore(blobStore, dataDir);
  const app = buildApp({ config, store, blobs, clock });
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
    blobs,
    factories: new Factories(store, clock),
    async close() {
      await app.close();
      await blobs.close();
      await opened.close();
    },
  };
}
