import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { ConfigError, loadConfig } from "../../src/config/config.js";

describe("config", () => {
  it("has the defaults of operations.md", () => {
    const config = loadConfig({}, {});
    assert.equal(config.port, 8080);
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.dataDir, resolve("./data"));
    assert.deepEqual(config.store, { kind: "sqlite", file: resolve("./data/kairan.sqlite"), synchronous: "normal" });
    assert.equal(config.publicUrl, undefined);
    assert.equal(config.demo, true);
    assert.equal(config.locale, "ja");
    assert.ok(Object.isFrozen(config));
  });

  it("takes flags over environment", () => {
    const config = loadConfig({ port: "9000", publicUrl: "https://kairan.example/" }, { KAIRAN_PORT: "1", KAIRAN_DEMO: "0", KAIRAN_LOCALE: "en", KAIRAN_DATABASE_URL: "postgres://u@h/db" });
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
});
