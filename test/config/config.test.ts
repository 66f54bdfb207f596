import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadBlobStoreConfig, loadConfig } from "../../src/config/config.js";

describe("config", () => {
  it("has the defaults of docs/operations.md", () => {
    const config = loadConfig({}, {});
    assert.equal(config.port, 8080);
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.dataDir, resolve("./data"));
    assert.deepEqual(config.store, { kind: "sqlite", file: resolve("./data/kairan.sqlite"), synchronous: "normal" });
    assert.equal(config.publicUrl, undefined);
    assert.equal(config.demo, true);
    assert.equal(config.locale, "ja");
    assert.deepEqual(config.blobStore, { kind: "local" }, "files under --data");
    assert.ok(Object.isFrozen(config));
  });

  it("takes flags over environment", () => {
    const config = loadConfig(
      { port: "9000", publicUrl: "https://kairan.example/" },
      { KAIRAN_PORT: "1", KAIRAN_DEMO: "0", KAIRAN_LOCALE: "en", KAIRAN_DATABASE_URL: "postgres://u@h/db" },
    );
    assert.equal(config.port, 9000);
    assert.equal(config.publicUrl, "https://kairan.example", "trailing slash dropped");
    assert.equal(config.demo, false);
    assert.equal(config.locale, "en");
    assert.deepEqual(config.store, { kind: "postgres", url: "postgres://u@h/db" });
    assert.equal(loadConfig({ noDemo: true }, {}).demo, false);
  });

  it("reports every bad value at once, naming option and variable", () => {
    assert.throws(
      () => loadConfig({ port: "x" }, { KAIRAN_LOCALE: "fr", KAIRAN_DATABASE_URL: "mysql://x", KAIRAN_DEMO: "maybe" }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 4);
        assert.match(error.message, /--port \/ KAIRAN_PORT/);
        assert.match(error.message, /--database \/ KAIRAN_DATABASE_URL: must be a postgres:\/\/ URL/);
        return true;
      },
    );
    assert.throws(() => loadConfig({ port: "65536" }, {}), ConfigError);
    assert.equal(loadConfig({ port: "0" }, {}).port, 0);
  });

  it("takes the pages' time zone as an IANA name, in its canonical spelling, UTC by default", () => {
    assert.equal(loadConfig({}, {}).timeZone, "UTC");
    assert.equal(loadConfig({ timeZone: "asia/tokyo" }, {}).timeZone, "Asia/Tokyo");
    assert.equal(loadConfig({}, { KAIRAN_TIME_ZONE: "America/New_York" }).timeZone, "America/New_York");
    for (const bad of ["Mars/Olympus", "+09:00", "Tokyo time"]) {
      assert.throws(
        () => loadConfig({ timeZone: bad }, {}),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError);
          assert.match(error.message, /--time-zone \/ KAIRAN_TIME_ZONE: must be an IANA time zone such as Asia\/Tokyo/);
          return true;
        },
      );
    }
  });

  it("selects an S3-compatible bucket with its endpoint, region, path style and keys", () => {
    const config = loadConfig(
      { blobStore: "s3://kairan-files/team/a/", s3Endpoint: "http://minio:9000/", s3ForcePathStyle: true },
      { KAIRAN_S3_ACCESS_KEY_ID: "AKIA1", KAIRAN_S3_SECRET_ACCESS_KEY: "s3cret", AWS_REGION: "eu-central-1" },
    );
    assert.deepEqual(config.blobStore, {
      kind: "s3",
      bucket: "kairan-files",
      prefix: "team/a",
      endpoint: "http://minio:9000",
      region: "eu-central-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIA1", secretAccessKey: "s3cret" },
    });
    assert.ok(Object.isFrozen(config.blobStore));
    const aws = loadConfig(
      {},
      { KAIRAN_BLOB_STORE: "s3://bucket.with.dots", KAIRAN_S3_REGION: "ap-northeast-1", AWS_REGION: "us-west-2" },
    );
    assert.deepEqual(
      aws.blobStore,
      {
        kind: "s3",
        bucket: "bucket.with.dots",
        prefix: "",
        endpoint: undefined,
        region: "ap-northeast-1",
        forcePathStyle: false,
        credentials: undefined,
      },
      "no keys: the AWS SDK's own chain; KAIRAN_S3_REGION over AWS_REGION",
    );
    const defaults = loadConfig({ blobStore: "s3://abc" }, {}).blobStore;
    assert.ok(defaults.kind === "s3" && defaults.region === "us-east-1" && !defaults.forcePathStyle);
  });

  it("reports every bad storage setting at once, never echoing the secret", () => {
    assert.throws(
      () =>
        loadConfig(
          { blobStore: "s3://Bad_Bucket", s3Endpoint: "minio:9000" },
          {
            KAIRAN_S3_REGION: "eu central",
            KAIRAN_S3_SECRET_ACCESS_KEY: "top-secret-value",
            KAIRAN_S3_FORCE_PATH_STYLE: "yes",
          },
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 5, error.message);
        assert.match(error.message, /--blob-store \/ KAIRAN_BLOB_STORE: must be s3:\/\/BUCKET/);
        assert.match(error.message, /--s3-endpoint \/ KAIRAN_S3_ENDPOINT: must start with http:\/\/ or https:\/\//);
        assert.match(error.message, /--s3-region \/ KAIRAN_S3_REGION/);
        assert.match(error.message, /--s3-force-path-style \/ KAIRAN_S3_FORCE_PATH_STYLE: must be 0 or 1/);
        assert.match(error.message, /KAIRAN_S3_ACCESS_KEY_ID \/ KAIRAN_S3_SECRET_ACCESS_KEY: set both or neither/);
        assert.doesNotMatch(error.message, /top-secret-value/);
        return true;
      },
    );
    for (const bad of [
      "s3://",
      "s3://ab",
      "s3://bucket//x",
      "s3://bucket/../x",
      "s3://bucket/a b",
      "https://bucket",
      "s3://-bucket",
    ]) {
      assert.throws(() => loadConfig({ blobStore: bad }, {}), ConfigError, bad);
    }
    assert.throws(
      () =>
        loadConfig(
          {},
          { KAIRAN_S3_SECRET_ACCESS_KEY: "x".repeat(257), KAIRAN_S3_ACCESS_KEY_ID: "a", KAIRAN_BLOB_STORE: "s3://abc" },
        ),
      /\(got \(hidden\)\)/,
    );
  });

  it("refuses S3 settings without an S3 bucket: files would silently stay on the local disk", () => {
    assert.throws(
      () =>
        loadConfig(
          { s3Endpoint: "http://minio:9000", s3ForcePathStyle: true },
          { KAIRAN_S3_ACCESS_KEY_ID: "a", KAIRAN_S3_SECRET_ACCESS_KEY: "b" },
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 3, error.message);
        assert.match(
          error.message,
          /--s3-endpoint \/ KAIRAN_S3_ENDPOINT: only applies with --blob-store s3:\/\/BUCKET/,
        );
        return true;
      },
    );
    assert.deepEqual(
      loadConfig({}, { AWS_REGION: "eu-west-1" }).blobStore,
      { kind: "local" },
      "AWS_REGION alone is not a setting of ours",
    );
  });

  it("reads the storage settings alone for kairan copy", () => {
    const config = loadBlobStoreConfig({ blobStore: "s3://abc/x" }, { KAIRAN_PORT: "not a port" });
    assert.equal(config.kind, "s3");
    assert.deepEqual(loadBlobStoreConfig({}, {}), { kind: "local" });
    assert.throws(() => loadBlobStoreConfig({ blobStore: "s3://" }, {}), ConfigError);
  });

  it("has limits on by default, generous, as README's table says", () => {
    const { limits } = loadConfig({}, {});
    assert.deepEqual(limits.rateLimit, { perAddress: 3000, perToken: 1200, windowMs: 60_000 });
    assert.deepEqual(limits.loginThrottle, {
      perAccount: 10,
      perAddress: 50,
      untrustedPerAccount: 30,
      windowMs: 15 * 60_000,
      backoffAfter: 5,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
    });
    assert.deepEqual(limits.trustProxy, []);
    assert.equal(limits.maxUploads, 16);
    assert.equal(limits.feedCacheBytes, 16 * 1024 * 1024);
    assert.equal(limits.importUploadBytes, 50 * 1024 * 1024);
    assert.deepEqual(limits.timeouts, {
      headersMs: 20_000,
      requestMs: 300_000,
      keepAliveMs: 10_000,
      idleMs: 60_000,
      shutdownGraceMs: 10_000,
    });
    assert.ok(Object.isFrozen(limits) && Object.isFrozen(limits.timeouts));
  });

  it("takes limits from flags over environment, and turns rate limiting off either way", () => {
    const env = {
      KAIRAN_RATE_LIMIT_ADDRESS: "10",
      KAIRAN_RATE_LIMIT_TOKEN: "7",
      KAIRAN_SHUTDOWN_GRACE: "2.5",
      KAIRAN_TRUST_PROXY: "10.0.0.1, ::1",
      KAIRAN_SQLITE_SYNC: "full",
    };
    const config = loadConfig({ limits: { rateLimitAddress: "20", maxUploads: "2" } }, env);
    assert.deepEqual(config.limits.rateLimit, { perAddress: 20, perToken: 7, windowMs: 60_000 });
    assert.equal(config.limits.maxUploads, 2);
    assert.equal(config.limits.timeouts.shutdownGraceMs, 2500);
    assert.deepEqual(config.limits.trustProxy, ["10.0.0.1", "::1"]);
    assert.deepEqual(config.store, { kind: "sqlite", file: resolve("./data/kairan.sqlite"), synchronous: "full" });
    const untrusted = (flags: { loginLimitUntrusted?: string }, environment: Record<string, string>) =>
      loadConfig({ limits: flags }, environment).limits.loginThrottle.untrustedPerAccount;
    assert.equal(untrusted({}, { KAIRAN_LOGIN_LIMIT_UNTRUSTED: "1" }), 1, "the boundary: one failure");
    assert.equal(untrusted({ loginLimitUntrusted: "12" }, { KAIRAN_LOGIN_LIMIT_UNTRUSTED: "1" }), 12);
    assert.throws(
      () => untrusted({ loginLimitUntrusted: "0" }, {}),
      /--login-limit-untrusted \/ KAIRAN_LOGIN_LIMIT_UNTRUSTED/,
    );
    assert.equal(loadConfig({ limits: { noRateLimit: true } }, {}).limits.rateLimit, undefined);
    assert.equal(loadConfig({}, { KAIRAN_RATE_LIMIT: "0" }).limits.rateLimit, undefined);
  });

  it("reports every bad limit at once, naming option and variable", () => {
    assert.throws(
      () =>
        loadConfig(
          {
            sqliteSync: "fast",
            limits: { rateLimitAddress: "0", maxUploads: "many", trustProxy: "proxy.example", shutdownGrace: "-1" },
          },
          { KAIRAN_RATE_LIMIT: "off" },
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 6, error.message);
        assert.match(error.message, /--rate-limit-address \/ KAIRAN_RATE_LIMIT_ADDRESS: must be 1 or more/);
        assert.match(error.message, /--no-rate-limit \/ KAIRAN_RATE_LIMIT: must be 0 or 1/);
        assert.match(
          error.message,
          /--trust-proxy \/ KAIRAN_TRUST_PROXY: must be a comma-separated list of IP addresses/,
        );
        assert.match(error.message, /--sqlite-sync \/ KAIRAN_SQLITE_SYNC: must be normal or full/);
        return true;
      },
    );
    assert.throws(
      () => loadConfig({ limits: { headersTimeout: "30", requestTimeout: "10" } }, {}),
      /--headers-timeout \/ KAIRAN_HEADERS_TIMEOUT: must not be longer than --request-timeout/,
    );
  });

  it("takes the feed cache size in MB from 0 (off) to 4096", () => {
    assert.equal(loadConfig({ limits: { feedCache: "0" } }, {}).limits.feedCacheBytes, 0);
    assert.equal(loadConfig({}, { KAIRAN_FEED_CACHE_MB: "4096" }).limits.feedCacheBytes, 4096 * 1024 * 1024);
    assert.throws(
      () => loadConfig({ limits: { feedCache: "4097" } }, {}),
      /--feed-cache-mb \/ KAIRAN_FEED_CACHE_MB: must be at most 4096/,
    );
    assert.throws(
      () => loadConfig({ limits: { feedCache: "-1" } }, {}),
      /--feed-cache-mb \/ KAIRAN_FEED_CACHE_MB: must be 0 or more/,
    );
    assert.throws(
      () => loadConfig({ limits: { feedCache: "1.5" } }, {}),
      /--feed-cache-mb \/ KAIRAN_FEED_CACHE_MB: must be an integer/,
    );
  });

  it("takes the largest upload of /admin/import in MB from 1 to 1024", () => {
    assert.equal(loadConfig({ limits: { importUploadMb: "1" } }, {}).limits.importUploadBytes, 1024 * 1024);
    assert.equal(loadConfig({}, { KAIRAN_IMPORT_UPLOAD_MB: "1024" }).limits.importUploadBytes, 1024 * 1024 * 1024);
    assert.throws(
      () => loadConfig({ limits: { importUploadMb: "1025" } }, {}),
      /--import-upload-mb \/ KAIRAN_IMPORT_UPLOAD_MB: must be at most 1024/,
    );
    assert.throws(
      () => loadConfig({}, { KAIRAN_IMPORT_UPLOAD_MB: "0" }),
      /--import-upload-mb \/ KAIRAN_IMPORT_UPLOAD_MB: must be 1 or more/,
    );
  });

  it("leaves /metrics off by default; --metrics or KAIRAN_METRICS=1 turns it on, with an optional token", () => {
    assert.deepEqual(loadConfig({}, {}).metrics, { enabled: false, token: undefined });
    assert.deepEqual(loadConfig({ metrics: true }, {}).metrics, { enabled: true, token: undefined });
    assert.equal(loadConfig({}, { KAIRAN_METRICS: "1" }).metrics.enabled, true);
    const sixteen = "a".repeat(16);
    assert.deepEqual(loadConfig({ metrics: true }, { KAIRAN_METRICS_TOKEN: sixteen }).metrics, {
      enabled: true,
      token: sixteen,
    });
  });

  it("refuses a short or spaced metrics token without echoing it, and a token while metrics are off", () => {
    for (const token of ["a".repeat(15), `${"a".repeat(15)} b`, "a".repeat(257)]) {
      assert.throws(
        () => loadConfig({ metrics: true }, { KAIRAN_METRICS_TOKEN: token }),
        (error: unknown) =>
          error instanceof ConfigError &&
          /^KAIRAN_METRICS_TOKEN: must be .* \(got \(hidden\)\)$/.test(error.problems[0] ?? "") &&
          !error.message.includes(token),
      );
    }
    assert.equal(loadConfig({ metrics: true }, { KAIRAN_METRICS_TOKEN: "a".repeat(256) }).metrics.token?.length, 256);
    assert.throws(
      () => loadConfig({}, { KAIRAN_METRICS_TOKEN: "a".repeat(16), KAIRAN_METRICS: "maybe" }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 2 &&
        error.problems.some((problem) => problem.startsWith("--metrics / KAIRAN_METRICS: must be 0 or 1")) &&
        error.problems.some((problem) => problem.startsWith("KAIRAN_METRICS_TOKEN: only applies with --metrics")),
    );
  });

  it("keeps sign-up off by default; --allow-signup or KAIRAN_ALLOW_SIGNUP=1 turns it on, anything else is refused", () => {
    assert.equal(loadConfig({}, {}).allowSignup, false);
    assert.equal(loadConfig({ allowSignup: true }, {}).allowSignup, true);
    assert.equal(loadConfig({}, { KAIRAN_ALLOW_SIGNUP: "1" }).allowSignup, true);
    assert.equal(loadConfig({}, { KAIRAN_ALLOW_SIGNUP: "true" }).allowSignup, true);
    assert.equal(loadConfig({}, { KAIRAN_ALLOW_SIGNUP: "0" }).allowSignup, false);
    assert.equal(loadConfig({ allowSignup: true }, { KAIRAN_ALLOW_SIGNUP: "0" }).allowSignup, true, "the flag wins");
    assert.throws(
      () => loadConfig({}, { KAIRAN_ALLOW_SIGNUP: "yes", KAIRAN_PORT: "x" }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 2 &&
        error.problems.some((problem) =>
          problem.startsWith('--allow-signup / KAIRAN_ALLOW_SIGNUP: must be 0 or 1 (got "yes")'),
        ),
    );
  });
});
