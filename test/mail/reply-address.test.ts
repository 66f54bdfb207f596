// Reply addresses as the notification mail gets them and the inbound listener reads them back.
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { DomainError } from "../../src/domain/errors.js";
import type { ReplyItem } from "../../src/domain/reply.js";
import {
  type ReplyAddressContext,
  readReplyAddress,
  replyAddressFor,
} from "../../src/services/mail-reply/reply-address.js";
import { type TestStore, describeEachBackend, openTestStore } from "../support/backends.js";
import { TestClock } from "../support/clock.js";

const TOPIC: ReplyItem = { kind: "BOARD", groupId: 3, id: 14 };
const DAY = 24 * 3_600_000;

describeEachBackend("reply addresses", (backend) => {
  let test: TestStore;
  let ctx: ReplyAddressContext;
  let clock: TestClock;
  before(async () => {
    test = await openTestStore(backend);
    clock = new TestClock();
    const mail = { domain: "Kairan.Example", inboundPort: 0 };
    ctx = { store: test.store, blobs: undefined as never, clock, config: { mail } };
  });
  after(() => test.close());

  const refusal = (code: string) => (error: unknown) => error instanceof DomainError && error.code === code;

  it("are reply+TOKEN at the mail domain, at most 64 characters before the @, and read back in any case", async () => {
    const address = (await replyAddressFor(ctx, undefined, 7, TOPIC)) ?? "";
    assert.match(address, /^reply\+[a-z2-7]+@Kairan\.Example$/);
    assert.ok(address.indexOf("@") <= 64);
    const claims = await readReplyAddress(ctx, address.toUpperCase());
    assert.deepEqual({ userId: claims.userId, item: claims.item }, { userId: 7, item: TOPIC });
    const inTx = await test.store.transaction((tx) => replyAddressFor(ctx, tx, 7, TOPIC));
    assert.equal(inTx, address, "the same hour, the same address");
  });

  it("are not made when this server receives no mail", async () => {
    const off = { ...ctx, config: { mail: { domain: "kairan.example", inboundPort: undefined } } };
    assert.equal(await replyAddressFor(off, undefined, 7, TOPIC), undefined);
  });

  it("work for 90 days, then are refused as expired", async () => {
    const address = (await replyAddressFor(ctx, undefined, 7, TOPIC)) ?? "";
    clock.advance(90 * DAY - 1);
    assert.equal((await readReplyAddress(ctx, address)).userId, 7);
    clock.advance(1);
    await assert.rejects(readReplyAddress(ctx, address), refusal("REPLY_ADDRESS_EXPIRED"));
  });

  it("refuse other domains and shapes (no relaying), and forged or changed tokens", async () => {
    const address = (await replyAddressFor(ctx, undefined, 7, TOPIC)) ?? "";
    const [local = "", domain = ""] = address.split("@");
    for (const other of [`${local}@elsewhere.example`, `bob@${domain}`, local, `@${domain}`, `reply@${domain}`])
      await assert.rejects(readReplyAddress(ctx, other), refusal("REPLY_ADDRESS_UNKNOWN"), other);
    // One character of the token changed (the one before the last, whatever it was).
    const changed = `${local.slice(0, -2)}${local.at(-2) === "a" ? "b" : "a"}${local.slice(-1)}@${domain}`;
    for (const forged of [changed, `reply+@${domain}`, `reply+${"a".repeat(58)}@${domain}`])
      await assert.rejects(readReplyAddress(ctx, forged), refusal("REPLY_ADDRESS_INVALID"), forged);
  });
});
