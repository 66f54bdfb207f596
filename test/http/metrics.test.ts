// GET /metrics over real HTTP, read with a strict Prometheus text-format reader
// (test/support/prometheus-text.ts): off by default; on, it counts requests by route pattern with
// latency histograms, the feed cache, the store's commits and the notification fan-outs, and it
// answers loopback clients only, or whoever sends the configured bearer token.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { isLoopback } from "../../src/http/metrics.js";
import { registeredEndpoints } from "../../src/http-kit/route.js";
import { describeEachBackend } from "../support/backends.js";
import { CLIENT_NS, request } from "../support/http.js";
import { type Family, assertHistogram, parsePrometheusText } from "../support/prometheus-text.js";
import { type TestServer, startTestServer } from "../support/server.js";

type Families = Map<string, Family>;

const PROBE = new URL("../support/prom-client-loaded.ts", import.meta.url);

function family(families: Families, name: string): Family {
  const found = families.get(name);
  assert.ok(found, `the scrape has ${name}`);
  return found;
}

/** The value of a counter or gauge without labels. */
function valueOf(families: Families, name: string): number {
  const found = family(families, name);
  assert.ok(found.type === "counter" || found.type === "gauge", name);
  return found.samples[0]?.value ?? NaN;
}

/** A histogram's count over the series whose labels include `labels`. */
function countOf(families: Families, name: string, labels: Record<string, string> = {}): number {
  const histogram = family(families, name);
  assert.equal(histogram.type, "histogram", name);
  return histogram.samples
    .filter((sample) => sample.name === `${name}_count`)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

async function scrape(url: string, headers: Record<string, string> = {}): Promise<Families> {
  const answer = await request(`${url}/metrics`, { headers });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  const families = parsePrometheusText(answer.text);
  for (const each of families.values()) if (each.type === "histogram") assertHistogram(each);
  return families;
}

describe("the text-format reader the tests use", () => {
  it("refuses what the format does not allow", () => {
    const good = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 2\n';
    assert.equal(parsePrometheusText(good).get("a_total")?.samples[0]?.value, 2);
    for (const bad of [
      "a_total 1\n",
      '# TYPE a counter\na{x="1} 1\n',
      "# TYPE a counter\na{x=1} 1\n",
      "# TYPE a counter\na one\n",
      "# TYPE a counter\na 1",
      '# TYPE a counter\na{x="1",x="2"} 1\n',
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n',
    ])
      assert.throws(() => {
        for (const each of parsePrometheusText(bad).values()) if (each.type === "histogram") assertHistogram(each);
      }, JSON.stringify(bad));
  });
});

describeEachBackend("GET /metrics", (backend) => {
  let server: TestServer;
  before(async () => {
    // The proxy is trusted, so a forwarded address is the client's (as behind a real proxy).
    server = await startTestServer(backend, { metrics: {}, limits: { trustProxy: "127.0.0.1" } });
  });
  after(() => server?.close());

  it("counts requests by route pattern, the feed cache, commits and fan-outs, in the text format", async () => {
    const [ann, ben] = [await server.factories.user(), await server.factories.user()];
    const group = await server.factories.group([ann, ben]);
    const body = `<feed ${CLIENT_NS}><entry><cbl:group id="1:${group.id}"/><title>Metrics</title><summary type="text">x</summary></entry></feed>`;
    assert.equal((await request(`${server.url}/api/board/V2`, { token: ann.token, body })).status, 200);
    // A feed is kept once its URL was asked for before: the third read is a hit.
    for (let n = 0; n < 3; n++)
      assert.equal((await request(`${server.url}/api/board/V2?group=1:${group.id}`, { token: ben.token })).status, 200);
    assert.equal((await request(`${server.url}/nowhere/123?secret=1`)).status, 404);

    const families = await scrape(server.url);
    const route = { route: "/api/board/V2", method: "GET", status: "200" };
    assert.ok(countOf(families, "kairan_http_request_duration_seconds", route) >= 3);
    assert.equal(
      countOf(families, "kairan_http_request_duration_seconds", { route: "/api/board/V2", method: "POST" }),
      1,
    );
    // Route patterns only: a path or a query in a label would make one series per URL.
    const known = new Set([...registeredEndpoints(server.app).map((e) => e.url), "unmatched"]);
    const routes = family(families, "kairan_http_request_duration_seconds").samples.map((s) => s.labels.route ?? "");
    assert.deepEqual(
      routes.filter((label) => !known.has(label)),
      [],
    );
    assert.ok(routes.includes("unmatched"));
    assert.ok(valueOf(families, "kairan_feed_cache_hits_total") >= 1);
    assert.ok(valueOf(families, "kairan_feed_cache_misses_total") >= 2);
    assert.ok(valueOf(families, "kairan_feed_cache_entries") >= 1);
    assert.ok(valueOf(families, "kairan_feed_cache_bytes") > 0);
    assert.equal(valueOf(families, "kairan_feed_cache_capacity_bytes"), 16 * 1024 * 1024);
    assert.ok(
      countOf(families, "kairan_store_commit_duration_seconds", { engine: backend, outcome: "committed" }) >= 1,
    );
    assert.ok(countOf(families, "kairan_store_commit_transactions", { engine: backend }) >= 1);
    assert.ok(countOf(families, "kairan_notification_fanout_duration_seconds") >= 1);
    if (backend === "postgres") {
      const pool = family(families, "kairan_store_pool_connections").samples;
      const total = pool.reduce((sum, sample) => sum + sample.value, 0);
      assert.ok(total >= 1 && total <= 10, `the pool holds ${total} connections`);
      assert.deepEqual(pool.map((sample) => sample.labels.state).sort(), ["busy", "idle"]);
      assert.equal(valueOf(families, "kairan_store_pool_waiting"), 0);
    } else assert.equal(families.has("kairan_store_pool_connections"), false, "SQLite has no pool");
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ])
      family(families, name);
    // Counters only grow: a second scrape does not count the hits again from zero.
    const again = await scrape(server.url);
    assert.equal(valueOf(again, "kairan_feed_cache_hits_total"), valueOf(families, "kairan_feed_cache_hits_total"));
  });

  it("answers loopback clients only when no token is configured", async () => {
    const answer = await request(`${server.url}/metrics`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    assert.equal(answer.status, 403);
    assert.equal(answer.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.match(answer.text, /^metrics are served to loopback clients only; set KAIRAN_METRICS_TOKEN/);
    assert.ok(!answer.text.includes("kairan_"));
    await scrape(server.url, { "x-forwarded-for": "127.0.0.1" });
  });
});

describeEachBackend("GET /metrics with KAIRAN_METRICS_TOKEN", (backend) => {
  const token = "scrape-0123456789";
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend, { metrics: { token }, limits: { trustProxy: "127.0.0.1" } });
  });
  after(() => server?.close());

  it("wants the token from everyone, loopback included, and compares it exactly", async () => {
    for (const authorization of [
      undefined,
      `Bearer ${token}x`,
      `Bearer ${token.slice(0, -1)}`,
      `Basic ${token}`,
      token,
    ]) {
      const answer = await request(`${server.url}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      assert.equal(answer.status, 401, String(authorization));
      assert.equal(answer.headers.get("www-authenticate"), 'Bearer realm="kairan metrics"');
      assert.ok(!answer.text.includes("kairan_"));
    }
    await scrape(server.url, { authorization: `Bearer ${token}` });
    await scrape(server.url, { authorization: `bearer ${token}`, "x-forwarded-for": "203.0.113.7" });
  });
});

describe("loopback addresses, which may scrape without a token", () => {
  it("are 127.0.0.0/8 and ::1, also IPv4-mapped; nothing that merely starts alike", () => {
    for (const address of ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1", "::FFFF:127.1.2.3"])
      assert.equal(isLoopback(address), true, address);
    for (const address of ["127.example", "127.0.0.1.example", "10.127.0.1", "::ffff:10.0.0.1", "::2", "", "1"])
      assert.equal(isLoopback(address), false, address);
  });
});

describeEachBackend("GET /metrics when not enabled", (backend) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(backend);
  });
  after(() => server?.close());

  it("does not exist", async () => {
    assert.equal((await request(`${server.url}/metrics`)).status, 404);
    assert.ok(!registeredEndpoints(server.app).some((endpoint) => endpoint.url === "/metrics"));
  });

  it("does not even load the Prometheus client (about 13 MB of resident memory)", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(PROBE)], { encoding: "utf8" });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout.trim().split("\n").pop() ?? ""), { loaded: false });
  });
});
