import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { BlobStore } from "../../src/blobs/blob-store.js";
import { openBlobStore } from "../../src/blobs/open.js";
import { type BlobStoreConfig, type StoreConfig, loadConfig } from "../../src/config/config.js";
import type { LimitFlags } from "../../src/config/limits.js";
import { openStore } from "../../src/store/open.js";
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
  /** The port of the listener of replies by mail (`smtpInbound`), else undefined. */
  readonly smtpPort: number | undefined;
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
  options: {
    readonly blobStore?: BlobStoreConfig;
    readonly limits?: LimitFlags;
    readonly publicUrl?: string;
    readonly locale?: string;
    /** Wraps the store the app is given (to watch what it reads); factories use the store itself. */
    readonly appStore?: (store: Store) => Store;
    /** Fills the new database before it is opened and migrated (see openTestStore). */
    readonly restore?: (config: StoreConfig) => Promise<void>;
    /** Serves GET /metrics (`--metrics`), with KAIRAN_METRICS_TOKEN when `token` is given. */
    readonly metrics?: { readonly token?: string };
    /** Lets people make their own accounts (`--allow-signup`). */
    readonly allowSignup?: boolean;
    /** `--smtp-url` (the SMTP sink's `url`); unset: mail goes to the outbox folder of the data directory. */
    readonly smtpUrl?: string;
    /** Receives replies by mail (`--smtp-inbound-port 0`, started as `kairan serve` starts it), for `mailDomain`. */
    readonly smtpInbound?: boolean;
    readonly mailDomain?: string;
    /** Lets webhooks reach private addresses (`--webhook-allow-private`): a receiver of the test listens on 127.0.0.1. */
    readonly webhookAllowPrivate?: boolean;
    /** The WebSub hub's poll interval (a long one shows that pushes come from the wake after commit). */
    readonly websubPollMs?: number;
  } = {},
): Promise<TestServer> {
  const { blobStore = { kind: "local" }, limits = {}, publicUrl, locale, appStore = (store: Store) => store } = options;
  const opened = await openTestStore(backend, options.restore);
  const { store, dataDir } = opened;
  const logLevel = process.env.KAIRAN_TEST_LOG ?? "silent";
  const flags = {
    port: "0",
    data: dataDir,
    logLevel,
    noDemo: true,
    publicUrl,
    locale,
    limits: { noRateLimit: true, ...limits },
    metrics: options.metrics !== undefined,
    allowSignup: options.allowSignup === true,
    webhookAllowPrivate: options.webhookAllowPrivate === true,
    smtpUrl: options.smtpUrl,
    smtpInboundPort: options.smtpInbound === true ? "0" : undefined,
    mailDomain: options.mailDomain,
  };
  const env = options.metrics?.token === undefined ? {} : { KAIRAN_METRICS_TOKEN: options.metrics.token };
  const config = { ...loadConfig(flags, env), store: opened.storeConfig, blobStore };
  const clock = new TestClock();
  const blobs = await openBlobStore(blobStore, dataDir);
  const app = buildApp({ config, store: appStore(store), blobs, clock, websubPollMs: options.websubPollMs });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const smtpPort = await app.mailInbound?.listen();
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
    smtpPort,
    async close() {
      await app.close();
      await blobs.close();
      await opened.close();
    },
  };
}

/** Another server instance over a test server's database, as a second process would be. */
export interface SiblingServer {
  readonly url: string;
  readonly store: Store;
  close(): Promise<void>;
}

/**
 * Boots another app over `first`'s database and files, with its own store connection (its own
 * pool on PostgreSQL), its own memory (the feed cache) and the same clock. `publicUrl` should be
 * `first`'s when feeds of both are compared byte for byte (links carry the base URL).
 */
export async function startSiblingServer(
  first: TestServer,
  options: { readonly limits?: LimitFlags; readonly publicUrl?: string } = {},
): Promise<SiblingServer> {
  const store = await openStore(first.storeConfig);
  const flags = {
    port: "0",
    data: first.dataDir,
    logLevel: process.env.KAIRAN_TEST_LOG ?? "silent",
    noDemo: true,
    publicUrl: options.publicUrl,
    limits: { noRateLimit: true, ...options.limits },
  };
  const config = { ...loadConfig(flags, {}), store: first.storeConfig, blobStore: { kind: "local" } as const };
  const app = buildApp({ config, store, blobs: first.blobs, clock: first.clock });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    store,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
