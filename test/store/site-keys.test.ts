import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { queueMail } from "../../src/services/mail/outbox.js";
import { siteKey } from "../../src/services/site-key.js";
import { TestClock } from "../support/clock.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import type { ServiceContext } from "../../src/services/context.js";

describeEachBackend("site keys and the outbox writer", (backend) => {
  let test: TestStore;
  let ctx: ServiceContext;
  before(async () => {
    test = await openTestStore(backend);
    ctx = { store: test.store, blobs: undefined as never, clock: new TestClock(1_000) };
  });
  after(() => test.close());

  it("makes a key once and gives the same one after, inside a transaction too", async () => {
    const first = await siteKey(ctx, "mail-reply");
    assert.equal(first.length, 32);
    assert.deepEqual(await siteKey(ctx, "mail-reply"), first);
    const fresh = { ...ctx, store: test.store };
    assert.deepEqual(await test.store.transaction((tx) => siteKey(fresh, "mail-reply", tx)), first);
    assert.notDeepEqual(await siteKey(ctx, "mail-unsubscribe"), first);
  });

  it("keeps the first of two racing makers", async () => {
    const [a, b] = await Promise.all([
      test.store.transaction((tx) => tx.siteKeys.getOrCreate("race", "one", 1)),
      test.store.transaction((tx) => tx.siteKeys.getOrCreate("race", "two", 2)),
    ]);
    assert.equal(a, b);
  });

  it("writes a message with a Message-ID of the mail domain and refuses a bad recipient", async () => {
    const id = await test.store.transaction((tx) =>
      queueMail(
        tx,
        { domain: "example.com" },
        { kind: "test", to: "bob@example.com", subject: "Hi\r\nBcc: eve@example.com", text: "body" },
        5_000,
      ),
    );
    assert.match(id, /^<test\.[A-Za-z0-9_-]{16}@example\.com>$/);
    await assert.rejects(
      test.store.transaction((tx) =>
        queueMail(tx, { domain: "example.com" }, { kind: "test", to: "x\n@y.z", subject: "s", text: "t" }, 5_000),
      ),
      /not an e-mail address/,
    );
  });
});
