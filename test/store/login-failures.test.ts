// The sign-in counters on every engine: windows, forgiveness, expiry, and no count lost when two
// connections (as two server processes would) count the same subject at once.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type LoginFailureScope, pairSubject } from "../../src/store/queries/login-failures.js";
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

  const count = (on: Store, subject: string, now: number, scope: LoginFailureScope = "pair") =>
    on.transaction((tx) => tx.loginFailures.count(scope, subject, now, WINDOW));

  it("counts attempts in a fixed window and starts a new one when it is over", async () => {
    const at = (failures: number, windowStart: number) => ({ failures, windowStart, notBefore: 0 });
    assert.deepEqual(await count(store, "a@example.com", T0), at(1, T0));
    assert.deepEqual(await count(store, "a@example.com", T0 + 1000), at(2, T0));
    assert.deepEqual(await count(store, "a@example.com", T0 + WINDOW - 1), at(3, T0));
    assert.deepEqual(await count(store, "a@example.com", T0 + WINDOW), at(1, T0 + WINDOW));
    assert.deepEqual(await count(store, "a@example.com", T0, "address"), at(1, T0), "scopes are counted apart");
  });

  it("clears an account on success and takes one attempt off an address", async () => {
    for (let n = 0; n < 3; n++) {
      await count(store, "b@example.com", T0);
      await count(store, "192.0.2.1", T0, "address");
    }
    await store.transaction(async (tx) => {
      await tx.loginFailures.forgive("pair", "b@example.com");
      await tx.loginFailures.forgive("address", "192.0.2.1");
    });
    assert.equal((await count(store, "b@example.com", T0)).failures, 1);
    assert.equal((await count(store, "192.0.2.1", T0, "address")).failures, 3);
  });

  it("backs an address off until a time, never closer, and reports it with the next count", async () => {
    await count(store, "192.0.2.50", T0, "address");
    const backOff = (notBefore: number) => store.transaction((tx) => tx.loginFailures.backOff("192.0.2.50", notBefore));
    await backOff(T0 + 4000);
    await backOff(T0 + 2000);
    assert.equal((await count(store, "192.0.2.50", T0 + 1, "address")).notBefore, T0 + 4000, "the later end stays");
    await backOff(T0 + 8000);
    assert.deepEqual(await count(store, "192.0.2.50", T0 + 2, "address"), {
      failures: 3,
      windowStart: T0,
      notBefore: T0 + 8000,
    });
  });

  it("forgets one account's failures from every address, and nobody else's", async () => {
    const account = "d_%@example.com";
    const subjects = [
      pairSubject(account, "192.0.2.1"),
      pairSubject(account, "2001:db8::1"),
      pairSubject("d_%@example.co", "192.0.2.1"), // a shorter account
      pairSubject(`${account}m`, "192.0.2.1"), // a longer one
      pairSubject("dx%@example.com", "192.0.2.1"), // what "d_%" would match as a LIKE pattern
      pairSubject("ø@example.com", "192.0.2.1"),
    ];
    for (const subject of subjects) await count(store, subject, T0);
    await count(store, account, T0, "address");
    const cleared = await store.transaction((tx) => tx.loginFailures.clearAccount(account));
    assert.equal(cleared, 2);
    const after = await Promise.all(subjects.map(async (subject) => (await count(store, subject, T0)).failures));
    assert.deepEqual(after, [1, 1, 2, 2, 2, 2]);
    assert.equal((await count(store, account, T0, "address")).failures, 2, "an address counter of the same text stays");
    assert.equal(await store.transaction((tx) => tx.loginFailures.clearAccount("ø@example.com")), 1);
  });

  it("forgets an account's untrusted budget and its trusted browsers' counters with it, and nobody else's", async () => {
    const account = "e@example.com";
    await count(store, account, T0, "untrusted");
    await count(store, pairSubject(account, "device-hash"), T0, "device");
    await count(store, "e@example.co", T0, "untrusted");
    await count(store, pairSubject("e@example.co", "device-hash"), T0, "device");
    await count(store, account, T0, "address");
    assert.equal(await store.transaction((tx) => tx.loginFailures.clearAccount(account)), 2);
    assert.equal((await count(store, account, T0, "untrusted")).failures, 1);
    assert.equal((await count(store, pairSubject(account, "device-hash"), T0, "device")).failures, 1);
    assert.equal((await count(store, "e@example.co", T0, "untrusted")).failures, 2, "another account's stays");
    assert.equal((await count(store, pairSubject("e@example.co", "device-hash"), T0, "device")).failures, 2);
    assert.equal((await count(store, account, T0, "address")).failures, 2, "an address counter of the same text stays");
  });

  it("clears a trusted browser's counter on success and takes one attempt off the untrusted budget", async () => {
    const device = pairSubject("f@example.com", "device-hash");
    for (let n = 0; n < 3; n++) {
      await count(store, device, T0, "device");
      await count(store, "f@example.com", T0, "untrusted");
    }
    await store.transaction(async (tx) => {
      await tx.loginFailures.forgive("device", device);
      await tx.loginFailures.forgive("untrusted", "f@example.com");
    });
    assert.equal((await count(store, device, T0, "device")).failures, 1);
    assert.equal((await count(store, "f@example.com", T0, "untrusted")).failures, 3);
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

  it("sweeps only the sign-in counters unless told which: the mail counters keep their hour-long windows", async () => {
    await count(store, "sweep@example.com", T0 - 2 * WINDOW);
    await count(store, "sweep@example.com", T0 - 2 * WINDOW, "reset-address");
    await count(store, "7", T0 - 2 * WINDOW, "invite-sender");
    assert.equal(await store.transaction((tx) => tx.loginFailures.removeExpired(T0 - WINDOW)), 1);
    assert.equal((await count(store, "sweep@example.com", T0 - 2 * WINDOW + 1, "reset-address")).failures, 2);
    const removed = await store.transaction((tx) =>
      tx.loginFailures.removeExpired(T0 - WINDOW, ["reset-address", "invite-sender"]),
    );
    assert.equal(removed, 2);
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
