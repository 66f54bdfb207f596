// test-run: serial: `npm pack` runs the package's prepare step (npm run build), which rewrites dist/ under the files that run it, and the install unpacks some 200 packages
//
// The package as a server gets it: `npm pack` in this checkout, `npm install -g --prefix DIR` of
// the tarball, then DIR/bin/kairan serve answers. No network: `npm install --offline` cannot
// work here, because npm resolves a package's dependency ranges from the registry's metadata,
// which `npm ci` (how node_modules was filled) never stores in npm's cache. So this test serves
// that metadata itself, made from package-lock.json (the versions this checkout is tested with),
// and every package's bytes come from npm's cache by their integrity: a tarball missing from the
// cache fails the install, as it would offline. One step is not run again: better-sqlite3's
// install script compiles SQLite from C (minutes), so the install skips scripts and the module
// gets the binary `npm ci` built for this checkout (the same version, for this same Node).
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { cleanEnv } from "../support/clean-env.js";
import { tempDirs } from "../support/temp-dirs.js";
import { CHECKOUT } from "../support/checkout.js";

const ROOT = CHECKOUT;
const scratch = tempDirs("kairan-pack-");

/** The environment of a shell: none of the npm_* variables `npm test` gives its children. */
function shellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(cleanEnv()).filter(([key]) => !key.toLowerCase().startsWith("npm_")));
}

/** Runs npm to its end without blocking this process, which serves npm the registry's metadata. */
async function npm(args: readonly string[], cwd: string): Promise<string> {
  const child = spawn("npm", args, { cwd, env: shellEnv(), timeout: 240_000 });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const status = await new Promise<number | null>((done, fail) => {
    child.once("error", fail);
    child.once("close", done);
  });
  assert.equal(status, 0, `npm ${args.join(" ")}:\n${out}\n${err}`);
  return out;
}

interface LockEntry {
  readonly version: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly [field: string]: unknown;
}

/** What a registry says of each package: here, only the versions package-lock.json holds. */
function packuments(registry: string): Map<string, object> {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const byName = new Map<string, Record<string, object>>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === "" || entry.link) continue;
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const fields = ["dependencies", "optionalDependencies", "peerDependencies", "peerDependenciesMeta"];
    const manifest = Object.fromEntries(
      [...fields, "bin", "engines", "os", "cpu", "libc", "hasInstallScript"].flatMap((field) =>
        entry[field] === undefined ? [] : [[field, entry[field]]],
      ),
    );
    const tarball = `${registry}/${name}/-/${name.split("/").pop()}-${entry.version}.tgz`;
    const versions = byName.get(name) ?? {};
    versions[entry.version] = {
      name,
      version: entry.version,
      ...manifest,
      dist: { tarball, integrity: entry.integrity },
    };
    byName.set(name, versions);
  }
  return new Map(
    [...byName].map(([name, versions]) => {
      const latest = Object.keys(versions).sort().pop() as string;
      return [name, { name, versions, "dist-tags": { latest } }];
    }),
  );
}

/** Names that some locked package takes as an optional peer dependency. */
function optionalPeers(): Set<string> {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { peerDependenciesMeta?: Record<string, { optional?: boolean }> }>;
  };
  return new Set(
    Object.values(lock.packages).flatMap((entry) =>
      Object.entries(entry.peerDependenciesMeta ?? {}).flatMap(([name, meta]) => (meta.optional ? [name] : [])),
    ),
  );
}

/** Serves the metadata; every other request (a tarball npm did not find in its cache) is refused and noted. */
async function metadataRegistry(): Promise<{ url: string; refused: string[]; server: Server }> {
  const refused: string[] = [];
  let known = new Map<string, object>();
  const server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "/").slice(1));
    const packument = known.get(name);
    if (!packument) {
      refused.push(request.url ?? "");
      response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
      return;
    }
    // no-store: npm's cache keeps nothing of this registry, which lives as long as the test.
    response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
    response.end(JSON.stringify(packument));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  known = packuments(url);
  return { url, refused, server };
}

/** Starts the installed command's server and resolves with its address once it listens. */
async function serve(command: string, data: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(command, ["serve", "--port", "0", "--data", data], { cwd: data, env: cleanEnv() });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no "listening on" line in 60 s; stderr:\n${err}`)), 60_000);
    child.stdout.on("data", () => {
      const match = /^listening on (http:\/\/\S+)$/m.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        done(match[1]);
      }
    });
    child.once("exit", (code) => fail(new Error(`kairan serve exited with ${code}; stderr:\n${err}`)));
  });
  return { child, url };
}

describe("npm pack, npm install -g from the tarball, kairan serve", () => {
  let tarball: string;
  let files: string[];
  let prefix: string;
  let running: ChildProcessWithoutNullStreams | undefined;
  let registry: Server | undefined;

  after(async () => {
    running?.kill("SIGTERM");
    await new Promise((done) => (running ? running.once("exit", done) : done(undefined)));
    registry?.closeAllConnections();
    registry?.close();
  });

  it("packs the compiled server, its web assets and the demo workspace, and no tests or sources", async () => {
    const out = scratch();
    const [packed] = JSON.parse(await npm(["pack", "--json", "--pack-destination", out], ROOT)) as {
      filename: string;
      files: { path: string }[];
    }[];
    assert.ok(packed);
    tarball = join(out, packed.filename);
    files = packed.files.map((file) => file.path);
    for (const needed of [
      "package.json",
      "README.md",
      "bin/kairan.js",
      "dist/cli/main.js",
      "dist/store/migrations/0001-core.js",
      "dist/web/templates/layout.eta",
      "dist/web/static/app.js",
      "dist/web/static/app.css",
      "seeds/demo.json",
      "deploy/kairan.service",
      "deploy/kairan.env",
      "deploy/nginx/kairan.conf",
      "docs/operations.md",
    ])
      assert.ok(files.includes(needed), `${needed} is in the package`);
    const stray = files.filter((path) =>
      /^(test|src|bench|scripts|\.ci)\/|\.tsbuildinfo$|\.map$|\.test\.|^docs\/screenshots\//.test(path),
    );
    assert.deepEqual(stray, [], "no tests, sources, benchmarks or screenshots");
  });

  it("installs globally into a prefix with every package from npm's cache", async () => {
    assert.ok(tarball, "the package was made");
    const served = await metadataRegistry();
    registry = served.server;
    prefix = scratch();
    await npm(
      [
        ...["install", "--global", "--prefix", prefix, "--registry", served.url, "--prefer-offline"],
        ...["--ignore-scripts", "--no-audit", "--no-fund", "--no-update-notifier", tarball],
      ],
      scratch(),
    );
    assert.deepEqual(
      served.refused.filter((path) => path.includes("/-/")),
      [],
      "every package's bytes came from npm's cache",
    );
    // npm also asks about optional peer dependencies nobody installed (pg-native, moment...): unknown here, as to npm ci.
    const asked = served.refused.map((path) => decodeURIComponent(path.slice(1)));
    assert.deepEqual(
      asked.filter((name) => !optionalPeers().has(name)),
      [],
      "only optional peers are unknown",
    );
    const installed = join(prefix, "lib/node_modules/kairan");
    assert.ok(existsSync(join(prefix, "bin/kairan")), "the kairan command is linked");
    assert.ok(!existsSync(join(installed, "node_modules/typescript")), "no development dependency");
    // The native module's build, done once by npm ci for this checkout (see the top of the file).
    const module = (root: string) => join(root, "node_modules/better-sqlite3");
    const version = (root: string) =>
      (JSON.parse(readFileSync(join(module(root), "package.json"), "utf8")) as { version: string }).version;
    assert.equal(version(installed), version(ROOT), "the same better-sqlite3 as the checkout's");
    mkdirSync(join(module(installed), "build/Release"), { recursive: true });
    copyFileSync(
      join(module(ROOT), "build/Release/better_sqlite3.node"),
      join(module(installed), "build/Release/better_sqlite3.node"),
    );
  });

  it("runs kairan serve from the installed command: health, the sign-in page and its stylesheet, the demo board", async () => {
    assert.ok(prefix, "the package was installed");
    const data = scratch();
    const server = await serve(join(prefix, "bin/kairan"), data);
    running = server.child;
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    const page = await fetch(`${server.url}/signin`, { headers: { "accept-language": "en" } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /<form[^>]+action="\/signin"/);
    const stylesheet = /href="(\/static\/app\.css[^"]*)"/.exec(html)?.[1];
    assert.ok(stylesheet, "the page links its stylesheet");
    assert.equal((await fetch(`${server.url}${stylesheet}`)).status, 200);
    const board = await fetch(`${server.url}/api/board/V2?group=1:1`, {
      headers: { authorization: "Bearer alice-demo-token" },
    });
    assert.equal(board.status, 200, "the demo workspace, loaded from the package's seeds/demo.json");
    assert.ok(existsSync(join(data, "kairan.sqlite")), "the database is in --data");
  });
});
