// The one-time links of accounts on every engine: found only by the hash of their secret, used
// once (two connections racing for one link: exactly one gets it), usable strictly before their
// end, swept a while after it.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { hashToken } from "../../src/auth/token.js";
import { linkState } from "../../src/domain/account-link.js";
import { issueLink, liveLink, useLink } from "../../src/services/account/account-links.js";
import { openStore } from "../../src/store/open.js";
import type { Store } from "../../src/store/store.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";

const T0 = Date.parse("2026-04-01T09:00:00Z");
const HOUR = 60 * 60 * 1000;

describeEachBackend("account links", (backend) => {
  let opened: TestStore;
  let store: Store;
  let userId: number;
  before(async () => {
    opened = await openTestStore(backend);
    store = opened.store;
    const user = await store.transaction((tx) =>
      tx.users.insert({
        name: "Ann",
        email: "ann@example.com",
        familyKana: "",
        givenKana: "",
        passwordHash: "x",
        createdAt: T0,
      }),
    );
    userId = user.id;
  });
  after(() => opened.close());

  const issue = (lifetimeMs = HOUR, at = T0) =>
    store.transaction((tx) => issueLink(tx, { purpose: "password-reset", userId, email: null, lifetimeMs }, at));

  it("stores the hash of the secret, never the secret, and finds the link by it for its purpose only", async () => {
    const link = await issue();
    assert.match(link.secret, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(link.expiresAt, T0 + HOUR);
    const rows = await store.read((tx) => tx.accountTokens.find("password-reset", hashToken(link.secret)));
    assert.equal(rows?.userId, userId);
    const dump = JSON.stringify(
      await store.read((tx) => tx.accountTokens.find("password-reset", hashToken(link.secret))),
    );
    assert.ok(!dump.includes(link.secret), "the secret is not stored");
    assert.equal(await store.read((tx) => tx.accountTokens.find("setup", hashToken(link.secret))), undefined);
    await assert.rejects(
      store.read((tx) => liveLink(tx, "address-confirm", link.secret, T0)),
      /LINK_NOT_FOUND|not valid/,
    );
  });

  it("works at 59:59 and is refused at 60:00 (the end is exclusive)", async () => {
    const link = await issue();
    await store.read((tx) => liveLink(tx, "password-reset", link.secret, T0 + HOUR - 1000));
    await assert.rejects(
      store.read((tx) => liveLink(tx, "password-reset", link.secret, T0 + HOUR)),
      (error: Error & { code?: string }) => error.code === "LINK_EXPIRED",
    );
    await assert.rejects(
      store.transaction((tx) => useLink(tx, "password-reset", link.secret, T0 + HOUR)),
      (error: Error & { code?: string }) => error.code === "LINK_EXPIRED",
    );
    assert.equal(linkState({ expiresAt: T0 + HOUR, usedAt: null }, T0 + HOUR - 1), "live");
    assert.equal(linkState({ expiresAt: T0 + HOUR, usedAt: null }, T0 + HOUR), "expired");
    assert.equal(linkState({ expiresAt: T0 + HOUR, usedAt: T0 }, T0), "used");
  });

  it("is used once: a second use is refused as used, not as unknown", async () => {
    const link = await issue();
    await store.transaction((tx) => useLink(tx, "password-reset", link.secret, T0 + 1000));
    await assert.rejects(
      store.transaction((tx) => useLink(tx, "password-reset", link.secret, T0 + 2000)),
      (error: Error & { code?: string }) => error.code === "LINK_USED",
    );
  });

  it("refuses malformed and unknown secrets alike, without a lookup for the malformed", async () => {
    for (const secret of ["", "short", "x".repeat(65), "a b c d e f g h i j k l m n o p", "A".repeat(32)])
      await assert.rejects(
        store.read((tx) => liveLink(tx, "password-reset", secret, T0)),
        (error: Error & { code?: string }) => error.code === "LINK_NOT_FOUND",
      );
  });

  it("gives a link raced by two connections (two processes) to exactly one of them", async () => {
    const link = await issue();
    const second = await openStore(opened.storeConfig);
    try {
      const results = await Promise.allSettled([
        store.transaction((tx) => useLink(tx, "password-reset", link.secret, T0 + 1000)),
        second.transaction((tx) => useLink(tx, "password-reset", link.secret, T0 + 1000)),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
    } finally {
      await second.close();
    }
  });

  it("sweeps links a week after their end, and removes a purpose's links at once", async () => {
    const old = await issue(HOUR, T0 - 6 * 24 * HOUR);
    await issue(HOUR, T0);
    assert.ok(await store.read((tx) => tx.accountTokens.find("password-reset", hashToken(old.secret))), "kept");
    await issue(HOUR, T0 + 2 * 24 * HOUR);
    assert.equal(await store.read((tx) => tx.accountTokens.find("password-reset", hashToken(old.secret))), undefined);
    const setup = await store.transaction((tx) =>
      issueLink(tx, { purpose: "setup", userId: null, email: null, lifetimeMs: HOUR }, T0),
    );
    assert.equal(await store.transaction((tx) => tx.accountTokens.removePurpose("setup")), 1);
    assert.equal(await store.read((tx) => tx.accountTokens.find("setup", hashToken(setup.secret))), undefined);
  });
});
