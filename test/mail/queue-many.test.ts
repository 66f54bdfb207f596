import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { queueMails } from "../../src/services/mail/outbox.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

describeEachBackend("queueMails, the outbox's writer of many messages", (backend) => {
  let test: TestStore;
  before(async () => {
    test = await openTestStore(backend);
  });
  after(() => test.close());

  const message = (i: number) => ({
    kind: "notification" as const,
    to: `m${i}@example.com`,
    subject: `s${i}\r\nX: y`,
    text: "t",
  });

  it("writes every message past the statement's chunk of 500, each with its own Message-ID, in order", async () => {
    const ids = await test.store.transaction((tx) =>
      queueMails(
        tx,
        { domain: "example.com" },
        Array.from({ length: 1201 }, (_, i) => message(i)),
        1_000,
      ),
    );
    assert.equal(ids.length, 1201);
    assert.equal(new Set(ids).size, 1201);
    assert.deepEqual(await test.store.read((tx) => tx.mailOutbox.counts()), { queued: 1201, sent: 0, failed: 0 });
    const last = await test.store.read((tx) => tx.mailOutbox.statusOf(ids[1200] ?? ""));
    assert.equal(last?.to_address, "m1200@example.com");
    // Folded like queueMail's: no header injection through the subject.
    assert.equal(last?.subject, "s1200 X: y");
  });

  it("writes nothing when one message is refused, and nothing for none", async () => {
    const before = await test.store.read((tx) => tx.mailOutbox.counts());
    const batch = [message(1), { ...message(2), to: "not an address" }, message(3)];
    await assert.rejects(
      test.store.transaction((tx) => queueMails(tx, { domain: "example.com" }, batch, 2_000)),
      /not an e-mail address/,
    );
    assert.deepEqual(await test.store.transaction((tx) => queueMails(tx, { domain: "example.com" }, [], 2_000)), []);
    assert.deepEqual(await test.store.read((tx) => tx.mailOutbox.counts()), before);
  });
});
