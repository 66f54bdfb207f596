// `npm start` runs the server as npm's own child (no shell in between that would swallow a
// signal), so SIGTERM to either process stops it cleanly and leaves no Kairan process behind.
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;
const dirs: string[] = [];
const started: ChildProcess[] = [];
after(() => {
  // A failed assertion must not leave npm and its server running (nor the test run waiting for them).
  for (const npm of started) for (const pid of [...descendantsOf(npm.pid!), npm.pid!]) stop(pid);
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

interface NpmStart {
  readonly npm: ChildProcess;
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/**
 * `npm start` on a free port and a fresh data directory. `--ignore-scripts` skips only the
 * `prestart` build (npm still runs `start` itself): `npm test` has built dist/ already, and
 * rebuilding it here would rewrite files other test files are loading at the same time.
 */
async function npmStart(): Promise<NpmStart> {
  const data = mkdtempSync(join(tmpdir(), "kairan-npm-start-"));
  dirs.push(data);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("KAIRAN_")));
  const npm = spawn("npm", ["start", "--ignore-scripts", "--silent"], {
    cwd: ROOT,
    env: { ...env, KAIRAN_PORT: "0", KAIRAN_DATA_DIR: data, KAIRAN_DEMO: "0", KAIRAN_LOG_LEVEL: "silent" },
  });
  started.push(npm);
  let out = "";
  let err = "";
  npm.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString()));
  npm.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening on" line in 60 s; stderr:\n${err}`)), 60_000);
    npm.stdout?.on("data", () => {
      if (!/^listening on http:\/\/\S+$/m.test(out)) return;
      clearTimeout(timer);
      resolve();
    });
    npm.once("exit", (code) => reject(new Error(`npm start exited with ${code}; stderr:\n${err}`)));
  });
  return { npm, exited, stderr: () => err };
}

/** The children of a process, from /proc. */
function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text === "" ? [] : text.split(/\s+/).map(Number);
}

function descendantsOf(pid: number): number[] {
  const children = running(pid) ? childrenOf(pid) : [];
  return children.flatMap((child) => [...descendantsOf(child), child]);
}

function stop(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
}

/** Whether the process still runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Waits, boundedly, until none of `pids` runs; returns those still running at the end. */
async function leftRunning(pids: readonly number[]): Promise<number[]> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (!pids.some(running)) return [];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return pids.filter(running);
}

/** The server npm started: its only child, node itself running `kairan.js serve`. */
function serverOf(npm: ChildProcess): number {
  const children = childrenOf(npm.pid!);
  assert.equal(children.length, 1, `npm has one child: ${children.map(commandLine).join(" | ")}`);
  const server = children[0]!;
  assert.match(commandLine(server), /^\S*node bin\/kairan\.js serve$/, "the server is npm's child, no shell between");
  assert.deepEqual(childrenOf(server), [], "the server starts no process of its own");
  return server;
}

describe("npm start", { skip: process.platform === "linux" ? false : "reads /proc (Linux)" }, () => {
  it("builds first (prestart) and runs the server itself, not through a shell", () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    assert.match(scripts.prestart ?? "", /^npm run build\b/);
    assert.match(scripts.start ?? "", /^exec node bin\/kairan\.js serve$/);
  });

  it("SIGTERM to the server npm started: it stops cleanly, and npm with it", async () => {
    const started = await npmStart();
    const server = serverOf(started.npm);
    process.kill(server, "SIGTERM");
    assert.equal(await started.exited, 0, started.stderr());
    assert.deepEqual(await leftRunning([server]), [], "no Kairan process left");
    assert.match(started.stderr(), /SIGTERM: finishing in-flight requests/);
  });

  it("SIGTERM to npm itself reaches the server, which stops cleanly", async () => {
    const started = await npmStart();
    const server = serverOf(started.npm);
    started.npm.kill("SIGTERM");
    await started.exited;
    assert.deepEqual(await leftRunning([server]), [], "no Kairan process left");
    assert.match(started.stderr(), /SIGTERM: finishing in-flight requests/);
  });
});

describe("npx kairan", () => {
  it("runs the project's own command line after npm ci, without asking the registry", () => {
    // An unreachable registry and an empty npm cache (as on a fresh machine): npx must find
    // `kairan` in this project, never download a namesake.
    const cache = mkdtempSync(join(tmpdir(), "kairan-npx-cache-"));
    dirs.push(cache);
    const result = spawnSync("npx", ["kairan", "--help"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, npm_config_registry: "http://127.0.0.1:9/", npm_config_cache: cache },
      timeout: 60_000,
    });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^Usage: kairan <command> \[options\]/m);
  });
});
