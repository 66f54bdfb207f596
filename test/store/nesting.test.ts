import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { after, before, it } from "node:test";
import { NestedTransactionError } from "../../src/store/nesting.js";
import type { Store, Tx } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

// A transaction (or a read) started inside a transaction of the same store is refused with a
// named error (src/store/nesting.ts). Without it SQLite waits forever: the timeout below is only
// there so that a regression fails instead of hanging the run; nothing here measures time.
// The check is the tests' (openTestStore turns it on): the server's store runs without its cost.
const NO_HANG = { timeout: 20_000 };

let count = 0;
function addUser(tx: Tx) {
  count += 1;
  return tx.users.insert({
    name: `Nest${count}`,
    email: `nest${count}@example.com`,
    familyKana: "",
    givenKana: "",
    passwordHash: "h",
    createdAt: 1_700_000_000_000,
  });
}

describeEachBackend("Nested transactions", (backend) => {
  let opened: TestStore;
  let store: Store;
  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
  });
  after(() => opened.close());

  const users = () => store.read((tx) => tx.users.list());

  it(
    "store.transaction inside a transaction throws NestedTransactionError; the outer one still decides",
    NO_HANG,
    async () => {
      const before = (await users()).length;
      let inner: unknown;
      await store.transaction(async (tx) => {
        await addUser(tx);
        inner = await store.transaction((nested) => addUser(nested)).catch((error: unknown) => error);
      });
      assert.ok(inner instanceof NestedTransactionError, `got ${String(inner)}`);
      assert.equal((inner as Error).name, "NestedTransactionError");
      assert.match((inner as Error).message, /store\.transaction was called inside a transaction/);
      assert.equal((await users()).length, before + 1, "the outer write committed, the inner one never ran");
    },
  );

  it("left uncaught, it rolls the outer transaction back", NO_HANG, async () => {
    const before = (await users()).length;
    await assert.rejects(
      store.transaction(async (tx) => {
        await addUser(tx);
        await store.transaction((nested) => addUser(nested));
      }),
      NestedTransactionError,
    );
    assert.equal((await users()).length, before);
  });

  it("store.read inside a transaction throws NestedTransactionError", NO_HANG, async () => {
    await assert.rejects(
      store.transaction(() => store.read((tx) => tx.users.list())),
      (error: unknown) => error instanceof NestedTransactionError && /store\.read was called/.test(error.message),
    );
  });

  it("transactions one after another, side by side, and reads inside reads are not nested", NO_HANG, async () => {
    const before = (await users()).length;
    await store.transaction((tx) => addUser(tx));
    await Promise.all([store.transaction((tx) => addUser(tx)), store.transaction((tx) => addUser(tx))]);
    // Work started inside a transaction that runs on after it ended is no longer inside it.
    let later: Promise<unknown> | undefined;
    await store.transaction(async (tx) => {
      await addUser(tx);
      later = new Promise((resolve) => setImmediate(resolve)).then(() => store.transaction((next) => addUser(next)));
    });
    await later;
    assert.equal(await store.read(() => users().then((list) => list.length)), before + 5);
  });
});

const PROBE = fileURLToPath(new URL("../support/nesting-probe.ts", import.meta.url));

/** How many times AsyncLocalStorage ran in a fresh process that opened a store and used it. */
function asyncLocalStorageRuns(check: boolean): number {
  const run = spawnSync(process.execPath, ["--import", "tsx", PROBE, ...(check ? ["check"] : [])], {
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout.trim().split("\n").pop() ?? "") as { runs: number }).runs;
}

it("a store opened as the server opens it checks nothing, and so never runs AsyncLocalStorage", () => {
  // Its first run turns on promise hooks for the whole process (docs/architecture.md "The
  // nested-transaction check runs in the tests"); with the check on, the probe sees it run.
  assert.ok(asyncLocalStorageRuns(true) > 0, "the probe sees the check's runs");
  assert.equal(asyncLocalStorageRuns(false), 0);
});
