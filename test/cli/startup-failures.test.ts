import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:net";
import { join } from "node:path";
import { describe, it } from "node:test";
import pg from "pg";
import { explainFailure } from "../../src/cli/failures.js";
import { describePostgresFailure } from "../../src/store/unavailable.js";
import { TEST_DATABASE_URL } from "../support/backends.js";
import { checkoutForUser } from "../support/checkout-for-user.js";
import { runKairan } from "../support/cli.js";
import { runKairanHere, startServeHere } from "../support/cli-in-process.js";
import { tempDirs } from "../support/temp-dirs.js";

const tempDir = tempDirs("kairan-start-");
/** The user the root's tests run a server as: nobody. */
const NOBODY = 65534;

const pgSkip = TEST_DATABASE_URL ? false : "needs PostgreSQL: set KAIRAN_TEST_DATABASE_URL";

/** A start that must fail: one line on standard error (no stack), exit status 2, nothing on standard output. */
function assertOneLineFailure(
  result: { status: number | null; stdout: string; stderr: string },
  message: RegExp,
): void {
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, "");
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 1, `one line on standard error, got:\n${result.stderr}`);
  assert.match(lines[0]!, /^kairan: /);
  assert.match(lines[0]!, message);
  assert.doesNotMatch(result.stderr, /^\s+at /m);
}

/**
 * `kairan serve` with the given options, which must not start: in this process, or given
 * `asProcess` (as another user, from a copy of the bin) as a process. What a process adds to the
 * one line, its exit status and all of its standard error, bad-input.test.ts checks for each way
 * of failing, and the first case here for the start of a server.
 */
async function failedServe(args: readonly string[], asProcess?: { uid?: number; bin?: string }) {
  const all = ["serve", "--log-level", "silent", ...args];
  return asProcess === undefined ? runKairanHere(all) : runKairan(all, {}, asProcess);
}

async function holdPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  assert.ok(address && typeof address === "object");
  return { server, port: address.port };
}

describe("kairan serve: start-up failures are one line, exit 2, and write nothing", () => {
  it("a port in use: no data directory, and the next start loads the demo without sweeping anything", async () => {
    const { server, port } = await holdPort();
    const data = join(tempDir(), "data");
    try {
      assertOneLineFailure(
        // A process: the failure operators meet most, as they meet it.
        await failedServe(["--port", String(port), "--data", data], {}),
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use; stop the other server or choose another --port`),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    assert.equal(existsSync(data), false, "no data directory was created");
    const next = await startServeHere(["--port", "0", "--data", data, "--log-level", "warn"]);
    try {
      assert.match(next.stdout(), /Loaded the demo workspace/);
      assert.doesNotMatch(next.stderr(), /temporary upload/);
    } finally {
      assert.equal(await next.stop(), 0);
    }
  });

  it("kairan seed leaves no temporary directory behind for the next start to sweep", async () => {
    const data = join(tempDir(), "data");
    assert.equal((await runKairanHere(["seed", "seeds/demo.json", "--data", data])).status, 0);
    const next = await startServeHere(["--port", "0", "--data", data, "--log-level", "warn"]);
    try {
      assert.doesNotMatch(next.stderr(), /temporary upload/);
    } finally {
      assert.equal(await next.stop(), 0);
    }
  });

  it("--host that is not an address of this machine, or no host at all", async () => {
    const data = join(tempDir(), "data");
    assertOneLineFailure(
      await failedServe(["--port", "0", "--host", "203.0.113.7", "--data", data]),
      /--host 203\.0\.113\.7 is not an address of this machine/,
    );
    assertOneLineFailure(
      await failedServe(["--port", "0", "--host", "no-such-host.invalid", "--data", data]),
      /--host no-such-host\.invalid: no such host name/,
    );
    assert.equal(existsSync(data), false);
  });

  it("--data that is a file, or under a file", async () => {
    const file = join(tempDir(), "file");
    writeFileSync(file, "not a directory");
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", file]),
      /--data .*file is a file, not a directory/,
    );
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", join(file, "data")]),
      /--data .*file\/data: .*file is a file, not a directory/,
    );
  });

  // Root may write anywhere, so the server runs as nobody when the tests run as root: what any
  // other user meets. Run as another user, the directory's mode is enough. Nobody runs the command
  // line from a copy when it cannot reach this checkout (a clone under /root, mode 700).
  const asRoot = process.getuid?.() === 0;
  const nobody = asRoot ? checkoutForUser(NOBODY, tempDir) : undefined;
  const asUser = nobody && "bin" in nobody ? { uid: NOBODY, bin: nobody.bin } : {};
  const skip = nobody && "skip" in nobody ? nobody.skip : false;
  it("--data that this user may not write into, or a database file it may not write", { skip }, async () => {
    const shared = tempDir();
    chmodSync(shared, 0o777);
    const locked = join(shared, "locked");
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", locked], asUser),
      /--data .*locked is not writable by this user; fix its permissions or choose another --data/,
    );
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", join(locked, "data")], asUser),
      /--data .*locked\/data: .*locked is not writable by this user/,
    );
    const open = join(shared, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    writeFileSync(join(open, "kairan.sqlite"), "", { mode: 0o444 });
    chmodSync(join(open, "kairan.sqlite"), 0o444);
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", open], asUser),
      /kairan\.sqlite is not writable by this user/,
    );
    assert.deepEqual(readdirSync(open), ["kairan.sqlite"], "nothing written beside it");
  });

  it("PostgreSQL that refuses connections: no data directory either", async () => {
    const data = join(tempDir(), "data");
    assertOneLineFailure(
      await failedServe(["--port", "0", "--data", data, "--database", "postgres://postgres@127.0.0.1:1/test"]),
      /PostgreSQL at 127\.0\.0\.1:1\/test refuses connections: start it, or fix the host and port in --database/,
    );
    assert.equal(existsSync(data), false);
  });

  it("a missing PostgreSQL database, schema or role", { skip: pgSkip }, async () => {
    const base = new URL(TEST_DATABASE_URL ?? "postgres://localhost/test");
    const at = (change: (url: URL) => void): string => {
      const url = new URL(base);
      url.search = "";
      change(url);
      return url.toString();
    };
    const data = join(tempDir(), "data");
    const cases: Array<[string, RegExp]> = [
      [
        at((url) => (url.pathname = "/kairan_no_such_db")),
        /database "kairan_no_such_db" does not exist; create it \(createdb\) or fix the database name in --database/,
      ],
      [
        at((url) => url.searchParams.set("search_path", "kairan_no_such_schema")),
        /no schema of search_path "kairan_no_such_schema" exists; create it \(CREATE SCHEMA\) or fix search_path/,
      ],
      [at((url) => (url.username = "kairan_no_such_role")), /refused the connection \(role "kairan_no_such_role"/],
    ];
    for (const [url, message] of cases) {
      assertOneLineFailure(await failedServe(["--port", "0", "--data", data, "--database", url]), message);
    }
    assert.equal(existsSync(data), false);
  });

  // The local server trusts every connection, so a refused password cannot be produced against it
  // without reconfiguring it: the mapping is checked on the error class pg itself raises.
  it("a refused password or role is named with its fix (pg's own DatabaseError)", () => {
    const refusal = (code: string, message: string) =>
      Object.assign(new pg.DatabaseError(message, 0, "error"), { code });
    assert.equal(
      describePostgresFailure(refusal("28P01", 'password authentication failed for user "kairan"'), "db:5432/kairan"),
      'PostgreSQL at db:5432/kairan refused the password (password authentication failed for user "kairan"); fix the user and password in --database',
    );
    assert.match(
      describePostgresFailure(refusal("28000", 'no pg_hba.conf entry for host "10.0.0.2"'), "db:5432/kairan") ?? "",
      /refused the connection \(no pg_hba\.conf entry for host "10\.0\.0\.2"\); fix the user in --database or allow it in pg_hba\.conf$/,
    );
    assert.equal(describePostgresFailure(refusal("23505", "duplicate key"), "db:5432/kairan"), undefined);
    // Met by a migration after the check at open: still one line; anything else stays a bug.
    assert.match(explainFailure(refusal("42501", "permission denied for schema public")) ?? "", /grant the user/);
    assert.equal(explainFailure(refusal("23505", "duplicate key")), undefined);
  });
});
