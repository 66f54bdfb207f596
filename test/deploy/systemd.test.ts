// The systemd unit and its environment file (deploy/): checked by systemd itself where it is
// installed (`systemd-analyze verify` and `security`), and always against Kairan's own options,
// environment variables and stopping rules, so that neither file can name an option Kairan no
// longer has. Then Kairan is started with exactly the environment the unit gives it and stopped
// the way systemd stops it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { EXIT_MARGIN_MS } from "../../src/cli/serve.js";
import { ACCOUNT_OPTIONS, LIMIT_OPTIONS, SERVER_OPTIONS } from "../../src/cli/options.js";
import { CONFIG_SOURCES, loadConfig } from "../../src/config/config.js";
import { KAIRAN_BIN, startServerProcess } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { tempDirs } from "../support/temp-dirs.js";

const DEPLOY = join(import.meta.dirname, "../../deploy");
const UNIT_TEXT = readFileSync(join(DEPLOY, "kairan.service"), "utf8");
const ENV_TEXT = readFileSync(join(DEPLOY, "kairan.env"), "utf8");
const scratch = tempDirs("kairan-systemd-");

/** A unit file as systemd reads it: each section's settings in order (a key may repeat). */
function parseUnit(text: string): Map<string, [string, string][]> {
  const sections = new Map<string, [string, string][]>();
  let current: [string, string][] | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = [];
      sections.set(section[1] as string, current);
      continue;
    }
    const equals = line.indexOf("=");
    assert.ok(current && equals > 0, `not a setting inside a section: ${line}`);
    current.push([line.slice(0, equals).trim(), line.slice(equals + 1).trim()]);
  }
  return sections;
}

const unit = parseUnit(UNIT_TEXT);
const service = unit.get("Service") ?? [];
/** The values of a [Service] key, in order. */
const all = (key: string) => service.filter(([name]) => name === key).map(([, value]) => value);
/** The one value of a [Service] key. */
const one = (key: string) => {
  const values = all(key);
  assert.equal(values.length, 1, `${key}= is set once in deploy/kairan.service (found ${values.length})`);
  return values[0] as string;
};

/** `NAME=value` lines of the environment file; `commented` also takes the `# NAME=value` examples. */
function envLines(commented: boolean): [string, string][] {
  const pattern = commented ? /^#?\s*([A-Z][A-Z0-9_]*)=(.*)$/ : /^([A-Z][A-Z0-9_]*)=(.*)$/;
  return ENV_TEXT.split("\n").flatMap((line) => {
    const match = pattern.exec(line.trim());
    return match ? [[match[1] as string, match[2] as string] as [string, string]] : [];
  });
}

/** The environment the unit gives Kairan: Environment= lines, then the file's (which win). */
function unitEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const assignment of all("Environment")) {
    const [name = "", ...value] = assignment.split("=");
    env[name] = value.join("=");
  }
  for (const [name, value] of envLines(false)) env[name] = value;
  return env;
}

const KAIRAN_VARIABLES = new Set<string>(Object.values(CONFIG_SOURCES).map((source) => source.env));
const SERVE_OPTIONS = new Set(Object.keys({ ...SERVER_OPTIONS, ...LIMIT_OPTIONS, ...ACCOUNT_OPTIONS }));

/** Why systemd's own checks cannot run here, or undefined when they can. */
function withoutSystemd(): string | undefined {
  const probe = spawnSync("systemd-analyze", ["--version"], { encoding: "utf8" });
  return probe.error ? "systemd-analyze is not installed (Debian's systemd package)" : undefined;
}

describe("deploy/kairan.service", () => {
  it("passes systemd-analyze verify", { skip: withoutSystemd() }, () => {
    // verify checks that ExecStart's command exists: the unit names where `npm install -g` puts
    // it, so the copy checked names this checkout's command instead (and nothing else differs).
    const [command = ""] = one("ExecStart").split(/\s+/);
    const copy = join(scratch(), "kairan.service");
    writeFileSync(copy, UNIT_TEXT.replace(`ExecStart=${command} `, `ExecStart=${KAIRAN_BIN} `));
    assert.notEqual(readFileSync(copy, "utf8"), UNIT_TEXT, "the copy runs this checkout's bin/kairan.js");
    const verify = spawnSync("systemd-analyze", ["verify", "--man=no", copy], { encoding: "utf8" });
    assert.equal(verify.status, 0, `systemd-analyze verify:\n${verify.stdout}${verify.stderr}`);
    assert.equal(verify.stderr.trim(), "", "no warning (an unknown or misspelt key is only a warning)");
  });

  it("rates OK in systemd-analyze security (exposure below 2 of 10)", { skip: withoutSystemd() }, () => {
    const copy = join(scratch(), "kairan.service");
    writeFileSync(copy, UNIT_TEXT);
    const review = spawnSync("systemd-analyze", ["security", "--offline=true", "--no-pager", copy], {
      encoding: "utf8",
    });
    const score = /Overall exposure level for kairan\.service: ([0-9.]+)/.exec(review.stdout)?.[1];
    assert.ok(score !== undefined, `no overall exposure in:\n${review.stdout}${review.stderr}`);
    assert.ok(Number(score) < 2, `exposure ${score}:\n${review.stdout}`);
  });

  it("runs `kairan serve` as its own user, with options Kairan has", () => {
    const [command = "", subcommand, ...args] = one("ExecStart").split(/\s+/);
    assert.match(command, /^\/.*\/kairan$/, "an absolute path to the kairan command");
    assert.equal(subcommand, "serve");
    for (const arg of args.filter((word) => word.startsWith("--")))
      assert.ok(SERVE_OPTIONS.has(arg.slice(2).split("=")[0] as string), `kairan serve has no option ${arg}`);
    assert.equal(one("Type"), "simple");
    assert.notEqual(one("User"), "root");
    assert.equal(one("User"), one("Group"));
    assert.equal(one("EnvironmentFile"), "/etc/kairan/kairan.env", "the file deploy/kairan.env is installed as");
  });

  it("sets only KAIRAN_* variables that Kairan reads, in the unit and its environment file (examples included)", () => {
    const names = [
      ...all("Environment").map((assignment) => assignment.split("=")[0] as string),
      ...envLines(true).map(([name]) => name),
    ].filter((name) => name.startsWith("KAIRAN_"));
    assert.ok(names.length >= 8, `the file sets the options a server needs (found ${names.join(", ")})`);
    for (const name of names) assert.ok(KAIRAN_VARIABLES.has(name), `Kairan reads no ${name}`);
    for (const [name] of envLines(true))
      assert.ok(name.startsWith("KAIRAN_"), `${name}: the environment file holds Kairan's options only`);
  });

  it("leaves only the data directory writable, and it is Kairan's --data", () => {
    const env = unitEnvironment();
    const data = env.KAIRAN_DATA_DIR;
    assert.equal(data, "/var/lib/kairan");
    assert.equal(one("ProtectSystem"), "strict");
    assert.deepEqual(all("ReadWritePaths"), [data]);
    assert.equal(`/var/lib/${one("StateDirectory")}`, data, "systemd makes it, owned by the service's user");
    assert.equal(one("WorkingDirectory"), data);
    for (const [key, value] of [
      ["NoNewPrivileges", "yes"],
      ["PrivateTmp", "yes"],
      ["ProtectHome", "yes"],
      ["PrivateDevices", "yes"],
      ["CapabilityBoundingSet", ""],
    ])
      assert.equal(one(key as string), value, `${key}=${value}`);
    assert.equal(all("MemoryDenyWriteExecute").length, 0, "V8's JIT needs writable executable memory");
  });

  it("stops as Kairan stops: SIGTERM, and time for the grace period and the margin after it", () => {
    assert.equal(one("KillSignal"), "SIGTERM");
    const config = loadConfig({}, unitEnvironment());
    const stopWithinMs = config.limits.timeouts.shutdownGraceMs + EXIT_MARGIN_MS;
    assert.ok(
      Number(one("TimeoutStopSec")) * 1000 > stopWithinMs,
      `TimeoutStopSec=${one("TimeoutStopSec")} must exceed the grace period plus ${EXIT_MARGIN_MS / 1000} s (${stopWithinMs / 1000} s)`,
    );
    assert.equal(one("Restart"), "on-failure");
    assert.equal(one("RestartPreventExitStatus"), "2", "exit status 2 is a start that cannot succeed");
    assert.equal(unit.get("Install")?.find(([key]) => key === "WantedBy")?.[1], "multi-user.target");
  });

  it("starts Kairan with the unit's environment (on loopback, without the demo, trusting nginx) and stops on SIGTERM with status 0", async () => {
    const env: Record<string, string> = { ...unitEnvironment(), KAIRAN_DATA_DIR: scratch(), KAIRAN_PORT: "0" };
    const server = await startServerProcess([], env);
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      // The unit trusts nginx on 127.0.0.1: the request log names the client nginx forwards for.
      await fetch(`${server.url}/signin`, { headers: { "x-forwarded-for": "203.0.113.7" } });
      await eventually(() => server.stderr().includes('"remoteAddress":"203.0.113.7"'), "the forwarded client logged");
      assert.match(
        server.stdout(),
        new RegExp(`setup: ${env.KAIRAN_PUBLIC_URL ?? "(no KAIRAN_PUBLIC_URL)"}/setup/`),
        "no demo, and the setup link is built from the public URL",
      );
    } finally {
      assert.equal(await server.stop(one("KillSignal") as NodeJS.Signals), 0, server.stderr());
    }
  });
});
