// The fast path's caller memo on SQLite (store/sqlite/caller-memo.ts): a poll's caller and view
// version are remembered only until anything is written to the database file, through the
// server's own connection or through any other (another process, a `kairan` command, an
// operator's SQL).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import SQLite from "better-sqlite3";
import { hashToken } from "../../src/auth/token.js";
import { openSqliteStore } from "../../src/store/sqlite/open.js";
import type { Store } from "../../src/store/store.js";
import { TestClock } from "../support/clock.js";
import { Factories } from "../support/factories.js";

// engines: sqlite only, because the caller memo is SQLite's (src/store/sqlite/caller-memo.ts).
describe("SQLite's caller memo", () => {
  let dir: string;
  let file: string;
  let store: Store;
  let f: Factories;
  let other: SQLite.Database;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "kairan-caller-memo-"));
    file = join(dir, "kairan.sqlite");
    store = openSqliteStore(file);
    await store.migrate();
    f = new Factories(store, new TestClock());
    other = new SQLite(file);
    other.pragma("busy_timeout = 5000");
  });
  after(async () => {
    other?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers a repeated poll the same, then sees a revocation by another connection at once", async () => {
    const alice = await f.user();
    const hash = hashToken(alice.token);
    const first = await store.callerView(hash);
    assert.equal(first?.grant.user.id, alice.id);
    assert.deepEqual((await store.callerView(hash))?.version.groupVersions, first?.version.groupVersions);
    other.prepare("UPDATE tokens SET revoked_at = 1 WHERE token_hash = ?").run(hash);
    assert.equal(await store.callerView(hash), undefined);
  });

  it("sees a disabled account written by another connection", async () => {
    const bob = await f.user();
    const hash = hashToken(bob.token);
    assert.ok(await store.callerView(hash));
    assert.ok(await store.callerView(hash));
    other.prepare("UPDATE users SET disabled_at = 1 WHERE id = ?").run(bob.id);
    assert.equal(await store.callerView(hash), undefined);
  });

  it("sees a write through the server's own connection: a membership moves the version", async () => {
    const carol = await f.user();
    const hash = hashToken(carol.token);
    const before = await store.callerView(hash);
    assert.ok(before);
    assert.equal((await store.callerView(hash))?.version.memberVersion, before.version.memberVersion);
    await f.group([carol]);
    const after = await store.callerView(hash);
    assert.ok(after);
    assert.notEqual(after.version.memberVersion, before.version.memberVersion);
    assert.notEqual(after.version.groupVersions, before.version.groupVersions);
  });

  it("sees a membership ended by another connection", async () => {
    const dave = await f.user();
    const group = await f.group([dave]);
    const hash = hashToken(dave.token);
    const joined = await store.callerView(hash);
    assert.ok(joined);
    assert.ok(await store.callerView(hash));
    other.prepare("DELETE FROM memberships WHERE user_id = ? AND group_id = ?").run(dave.id, group.id);
    const left = await store.callerView(hash);
    assert.notEqual(left?.version.memberVersion, joined.version.memberVersion);
  });

  it("reads the database's clock on every call, remembered or not", async () => {
    const erin = await f.user();
    const hash = hashToken(erin.token);
    const first = await store.callerView(hash);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await store.callerView(hash);
    assert.ok(first && second);
    assert.ok(second.version.now > first.version.now, "a remembered caller gets the time of the request");
  });
});
