// GET /metrics in Prometheus text format (prom-client), when enabled (config/metrics.ts): HTTP
// requests by route pattern, method and status with latency histograms; the feed cache; the
// store's commits and notification fan-outs (store/events.ts); live streams (stream-metrics.ts);
// mail (mail-metrics.ts); and the process's own figures.
import { createHash, timingSafeEqual } from "node:crypto";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { isIPv4 } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createRequire } from "node:module";
import type * as PromClient from "prom-client";
import type { MetricsConfig } from "../config/config.js";
import { type CommitEvent, type FanOutEvent, commitChannel, fanOutChannel } from "../store/events.js";
import type { PoolState } from "../store/store.js";
import type { FeedCache } from "./feed-cache.js";
import type { MetricFigure, MetricFigures } from "../context.js";
import { registerEndpoint } from "../http-kit/route.js";
import { type StreamTally, registerStreamMetrics } from "./stream-metrics.js";
import { type MailMetricsSources, registerMailMetrics } from "./mail-metrics.js";

/**
 * The Prometheus client, loaded only when metrics are on: it and its default metrics add about
 * 13 MB of resident memory to a server that never serves them.
 */
function loadPromClient(): typeof PromClient {
  return createRequire(import.meta.url)("prom-client") as typeof PromClient;
}

/** Seconds: from a cache hit's fraction of a millisecond to an upload's seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Transactions per SQLite commit: at most 32 share one (write-batch.ts). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32];

/** What the metrics read besides the requests themselves. */
export interface MetricsSources {
  readonly config: MetricsConfig;
  /** The API's feed cache, once registered. */
  readonly feedCache: () => FeedCache | undefined;
  /** The client's address through trusted proxies (the rate limits' own). */
  readonly clientAddress: (request: FastifyRequest) => string;
  /** The store's connection pool, when it has one (PostgreSQL). */
  readonly pool: (() => PoolState) | undefined;
  /** The live streams' hub, once made. */
  readonly streams: () => StreamTally | undefined;
  /** The outbox and this process's sender. */
  readonly mail: MailMetricsSources;
}

/**
 * Registers the metrics hooks and GET /metrics when they are enabled; nothing at all otherwise.
 * @returns the reader of the same figures, when enabled
 */
export function registerMetrics(app: FastifyInstance, sources: MetricsSources): MetricFigures | undefined {
  if (!sources.config.enabled) return undefined;
  const prom = loadPromClient();
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const requests = new prom.Histogram({
    name: "kairan_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status: time from receipt to the last byte handed to the socket.",
    labelNames: ["route", "method", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // A callback hook, not an async one: no promise per request (about half a microsecond in all, measured).
  app.addHook("onResponse", (request, reply, done) => {
    // The route's pattern, never the URL: the label's values are bounded by the route table.
    const route = request.routeOptions.url ?? "unmatched";
    requests.observe({ route, method: request.method, status: reply.statusCode }, reply.elapsedTime / 1000);
    done();
  });
  registerFeedCacheMetrics(prom, registry, sources.feedCache);
  const stopStore = registerStoreMetrics(prom, registry);
  if (sources.pool !== undefined) registerPoolMetrics(prom, registry, sources.pool);
  registerStreamMetrics(prom, registry, sources.streams);
  registerMailMetrics(prom, registry, sources.mail);
  app.addHook("onClose", async () => stopStore());
  const admit = scrapeAdmission(sources);
  registerEndpoint(
    app,
    "/metrics",
    {
      GET: async (request, reply) => {
        if (!admit(request, reply)) return reply;
        const text = await registry.metrics();
        return reply
          .code(200)
          .header("content-type", registry.contentType)
          .header("cache-control", "no-store")
          .send(text);
      },
    },
    { operational: true },
  );
  return async () => figuresOf(await registry.getMetricsAsJSON());
}

/** Every value but the histograms' buckets, in the registry's order. */
function figuresOf(
  metrics: readonly PromClient.MetricObjectWithValues<PromClient.MetricValue<string>>[],
): MetricFigure[] {
  return metrics.flatMap((metric) =>
    metric.values
      .filter((sample) => !("metricName" in sample) || !String(sample.metricName).endsWith("_bucket"))
      .map((sample) => ({
        name: "metricName" in sample && typeof sample.metricName === "string" ? sample.metricName : metric.name,
        labels: Object.entries(sample.labels)
          .map(([key, value]) => `${key}="${String(value)}"`)
          .join(","),
        value: sample.value,
      })),
  );
}

/** Hits and misses as counters (read from the cache's own tallies at scrape time), bytes and entries as gauges. */
function registerFeedCacheMetrics(
  prom: typeof PromClient,
  registry: PromClient.Registry,
  feedCache: () => FeedCache | undefined,
): void {
  const tally = (name: string, help: string, read: (cache: FeedCache) => number) => {
    let reported = 0;
    return new prom.Counter({
      name,
      help,
      registers: [registry],
      collect() {
        const cache = feedCache();
        if (cache === undefined) return;
        const now = read(cache);
        this.inc(now - reported);
        reported = now;
      },
    });
  };
  tally("kairan_feed_cache_hits_total", "Feed requests answered from the feed cache.", (cache) => cache.hits);
  tally("kairan_feed_cache_misses_total", "Feed requests the cache had no entry for.", (cache) => cache.misses);
  const gauge = (name: string, help: string, read: (cache: FeedCache) => number) =>
    new prom.Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const cache = feedCache();
        this.set(cache === undefined ? 0 : read(cache));
      },
    });
  gauge("kairan_feed_cache_bytes", "Bytes the feed cache holds (feeds and compressed variants).", (c) => c.bytes);
  gauge("kairan_feed_cache_entries", "Feeds the feed cache holds.", (c) => c.size);
  gauge("kairan_feed_cache_capacity_bytes", "The feed cache's bound (--feed-cache-mb).", (c) => c.capacityBytes);
}

/** Commits and fan-outs as the store publishes them; returns the unsubscription. */
function registerStoreMetrics(prom: typeof PromClient, registry: PromClient.Registry): () => void {
  const commits = new prom.Histogram({
    name: "kairan_store_commit_duration_seconds",
    help: "Write transactions from start to commit; on SQLite one write batch (several transactions, one commit).",
    labelNames: ["engine", "outcome"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const batches = new prom.Histogram({
    name: "kairan_store_commit_transactions",
    help: "Transactions sharing one commit (SQLite's group commit; always 1 on PostgreSQL).",
    labelNames: ["engine"] as const,
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  const fanOuts = new prom.Histogram({
    name: "kairan_notification_fanout_duration_seconds",
    help: "One item's notifications written for every member of its group, inside the writing transaction.",
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const onCommit = (message: unknown) => {
    const event = message as CommitEvent;
    commits.observe({ engine: event.engine, outcome: event.failed ? "failed" : "committed" }, event.seconds);
    batches.observe({ engine: event.engine }, event.transactions);
  };
  const onFanOut = (message: unknown) => fanOuts.observe((message as FanOutEvent).seconds);
  subscribe(commitChannel.name, onCommit);
  subscribe(fanOutChannel.name, onFanOut);
  return () => {
    unsubscribe(commitChannel.name, onCommit);
    unsubscribe(fanOutChannel.name, onFanOut);
  };
}

/** PostgreSQL's pool: connections busy and idle, and queries waiting for one (the pool is too small). */
function registerPoolMetrics(prom: typeof PromClient, registry: PromClient.Registry, pool: () => PoolState): void {
  new prom.Gauge({
    name: "kairan_store_pool_connections",
    help: "Connections of the PostgreSQL pool, by state.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const now = pool();
      this.set({ state: "busy" }, now.total - now.idle);
      this.set({ state: "idle" }, now.idle);
    },
  });
  new prom.Gauge({
    name: "kairan_store_pool_waiting",
    help: "Queries waiting for a connection of the PostgreSQL pool.",
    registers: [registry],
    collect() {
      this.set(pool().waiting);
    },
  });
}

/**
 * Who may scrape: with a token configured, whoever sends `Authorization: Bearer TOKEN` (compared in
 * constant time), from any address; without one, loopback clients only. Refusals are plain text.
 */
function scrapeAdmission(sources: MetricsSources): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const expected = sources.config.token === undefined ? undefined : digest(sources.config.token);
  return (request, reply) => {
    if (expected === undefined) {
      if (isLoopback(sources.clientAddress(request))) return true;
      refuse(
        reply,
        403,
        "metrics are served to loopback clients only; set KAIRAN_METRICS_TOKEN to scrape from elsewhere",
      );
      return false;
    }
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
    // Digests of equal length: the comparison takes the same time whatever was sent.
    if (given !== undefined && timingSafeEqual(digest(given), expected)) return true;
    reply.header("www-authenticate", 'Bearer realm="kairan metrics"');
    refuse(reply, 401, "metrics need Authorization: Bearer with the KAIRAN_METRICS_TOKEN value");
    return false;
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string): boolean {
  const v4 = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  return (isIPv4(v4) && v4.startsWith("127.")) || address === "::1";
}

function refuse(reply: FastifyReply, status: number, line: string): void {
  void reply.code(status).header("content-type", "text/plain; charset=utf-8").send(`${line}\n`);
}
