// The sign-in counters on every engine: windows, forgiveness, expiry, and no count lost when two
// connections (as two server processes would) count the same subject at once.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Store } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

const T0 = 1_700_000_000_000;
const WINDOW = 15 * 60 * 1000;

describeEachBackend("login failure counters", (backend) => {
  let opened: TestStore;
  let store: Store;
  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
  });
  after(() => opened.close());

  const count = (on: Store, subject: string, now: number, scope: "account" | "address" = "account") =>
    on.transaction((tx) => tx.loginFailures.count(scope, subject, now, WINDOW));

  it("counts attempts in a fixed window and starts a new one when it is over", async () => {
    assert.deepEqual(await count(store, "a@example.com", T0), { failures: 1, windowStart: T0 });
    assert.deepEqual(await count(store, "a@example.com", T0 + 1000), { failures: 2, windowStart: T0 });
    assert.deepEqual(await count(store, "a@example.com", T0 + WINDOW - 1), { failures: 3, windowStart: T0 });
    assert.deepEqual(await count(store, "a@example.com", T0 + WINDOW), { failures: 1, windowStart: T0 + WINDOW });
    assert.deepEqual(
      await count(store, "a@example.com", T0, "address"),
      { failures: 1, windowStart: T0 },
      "scopes are counted apart",
    );
  });

  it("clears an account on success and takes one attempt off an address", async () => {
    for (let n = 0; n < 3; n++) {
      await count(store, "b@example.com", T0);
      await count(store, "192.0.2.1", T0, "address");
    }
    await store.transaction(async (tx) => {
      await tx.loginFailures.forgive("account", "b@example.com");
      await tx.loginFailures.forgive("address", "192.0.2.1");
    });
    assert.equal((await count(store, "b@example.com", T0)).failures, 1);
    assert.equal((await count(store, "192.0.2.1", T0, "address")).failures, 3);
  });

  it("loses no count when two processes count the same subject at once", async () => {
    const [one, two] = await Promise.all([
      countInProcess(opened, "c@example.com", 20),
      countInProcess(opened, "c@example.com", 20),
    ]);
    assert.deepEqual(
      [...one, ...two].sort((a, b) => a - b),
      Array.from({ length: 40 }, (_, n) => n + 1),
      "every attempt got its own number",
    );
  });

  it("removes counters whose window started before a time", async () => {
    await count(store, "old@example.com", T0 - 2 * WINDOW);
    const removed = await store.transaction((tx) => tx.loginFailures.removeExpired(T0 - WINDOW));
    assert.equal(removed, 1);
    assert.equal((await count(store, "old@example.com", T0)).failures, 1);
  });
});

const COUNTER = fileURLToPath(new URL("../support/count-attempts.ts", import.meta.url));

/** Counts `times` attempts at once from a child process of its own; returns the counts it got. */
async function countInProcess(opened: TestStore, subject: string, times: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    "--import",
    "tsx",
    COUNTER,
    JSON.stringify(opened.storeConfig),
    subject,
    String(times),
  ]);
  return JSON.parse(stdout) as number[];
}
