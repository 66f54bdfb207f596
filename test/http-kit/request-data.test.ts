import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { requestSlot } from "../../src/http-kit/request-data.js";

describe("request slots", () => {
  it("keep one value per slot and holder, undefined until set", () => {
    const actor = requestSlot<string>("actor");
    const other = requestSlot<string>("actor");
    const first = {};
    const second = {};
    assert.equal(actor.get(first), undefined);
    actor.set(first, "alice");
    other.set(first, "bob");
    actor.set(second, "carol");
    assert.equal(actor.get(first), "alice", "two slots of the same name do not share a value");
    assert.equal(other.get(first), "bob");
    assert.equal(actor.get(second), "carol");
    actor.set(first, "dave");
    assert.equal(actor.get(first), "dave");
  });

  it("keep the value on the holder itself, out of sight of its string keys", () => {
    const slot = requestSlot<number>("count");
    const holder: Record<string, unknown> = { url: "/" };
    slot.set(holder, 3);
    assert.deepEqual(Object.keys(holder), ["url"]);
    assert.equal(Object.getOwnPropertySymbols(holder).length, 1);
    assert.equal(JSON.stringify(holder), '{"url":"/"}');
  });
});
