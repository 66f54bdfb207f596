// The feed cache's parts that need no server: the byte bound, coding negotiation, the key's
// target and the Last-Modified rule.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { lastModifiedOf, normalisedTarget } from "../../src/http/caching.js";
import { FeedCache, negotiateEncoding } from "../../src/http/feed-cache.js";

const OVERHEAD = 256;
/** A body whose entry costs exactly `bytes` under a one-character key. */
const costing = (bytes: number) => Buffer.alloc(bytes - OVERHEAD - 2, "x");

describe("feed cache", () => {
  it("holds entries up to its capacity in bytes, dropping the least recently read first", () => {
    const cache = new FeedCache(8000);
    for (const key of ["a", "b", "c", "d", "e", "f", "g", "h"]) assert.ok(cache.set(key, costing(1000), `"${key}"`));
    assert.equal(cache.bytes, 8000, "exactly full");
    assert.equal(cache.size, 8);
    assert.ok(cache.get("a"), "a is now the most recently used");
    cache.set("i", costing(1000), '"i"');
    assert.equal(cache.get("b"), undefined, "b was the least recently used");
    assert.ok(cache.get("a") && cache.get("i"));
    assert.equal(cache.bytes, 8000);
  });

  it("evicts the oldest once every entry has had its second chance, never the newcomer", () => {
    const cache = new FeedCache(8000);
    const keys = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (const key of keys) cache.set(key, costing(1000), `"${key}"`);
    for (const key of keys) cache.get(key);
    assert.ok(cache.set("i", costing(1000), '"i"'));
    assert.equal(cache.size, 8);
    assert.equal(cache.bytes, 8000);
    assert.equal(cache.get("a"), undefined);
    for (const key of [...keys.slice(1), "i"]) assert.ok(cache.get(key), key);
  });

  it("keeps a feed of an eighth of its capacity, not one byte more, and nothing at capacity 0", () => {
    const cache = new FeedCache(8000);
    assert.ok(cache.set("a", costing(1000), '"a"'));
    assert.equal(cache.set("b", costing(1001), '"b"'), undefined);
    assert.equal(cache.get("b"), undefined);
    const off = new FeedCache(0);
    assert.equal(off.set("a", Buffer.from("x"), '"a"'), undefined);
    assert.equal(off.size, 0);
  });

  it("replaces an entry of the same key and counts its bytes once", () => {
    const cache = new FeedCache(8000);
    cache.set("a", costing(1000), '"1"');
    cache.set("a", costing(900), '"2"');
    assert.equal(cache.bytes, 900);
    assert.equal(cache.get("a")?.etag, '"2"');
  });

  it("compresses a variant once, keeps it with the entry and counts it", () => {
    const cache = new FeedCache(1_000_000);
    const body = Buffer.from("<feed>".concat("entry ".repeat(2000), "</feed>"));
    const entry = cache.set("a", body, '"a"');
    assert.ok(entry);
    const before = cache.bytes;
    const gzip = cache.variant("a", entry, "gzip");
    assert.deepEqual(gunzipSync(gzip), body);
    assert.equal(cache.variant("a", entry, "gzip"), gzip, "the same bytes, not compressed again");
    assert.deepEqual(brotliDecompressSync(cache.variant("a", entry, "br")), body);
    assert.ok(cache.bytes > before);
  });

  it("admits a feed only for a target asked for before, remembering at least 1,024 targets", () => {
    const cache = new FeedCache(0);
    assert.equal(cache.admits("ann /api/star/V2"), false);
    assert.equal(cache.admits("ann /api/star/V2"), true);
    for (let n = 0; n < 1023; n++) cache.admits(`other ${n}`);
    assert.equal(cache.admits("ann /api/star/V2"), true, "1,024 targets remembered");
    cache.admits("one more");
    assert.equal(cache.admits("ann /api/star/V2"), false, "the oldest forgotten");
  });

  it("negotiates br or gzip by quality, br on a tie, none when refused or absent", () => {
    assert.equal(negotiateEncoding(undefined), undefined);
    assert.equal(negotiateEncoding("gzip, deflate, br"), "br");
    assert.equal(negotiateEncoding("gzip"), "gzip");
    assert.equal(negotiateEncoding("x-gzip"), "gzip");
    assert.equal(negotiateEncoding("br;q=0.5, gzip;q=0.8"), "gzip");
    assert.equal(negotiateEncoding("br;q=0, *"), "gzip");
    assert.equal(negotiateEncoding("*"), "br");
    assert.equal(negotiateEncoding("identity"), undefined);
    assert.equal(negotiateEncoding("gzip;q=0, br;q=0"), undefined);
    assert.equal(negotiateEncoding(""), undefined);
  });
});

describe("feed cache key and Last-Modified", () => {
  it("drops OAuth protocol parameters from the target and keeps the rest in order", () => {
    assert.equal(
      normalisedTarget("/api/board/V2?group=1:2&oauth_nonce=x&oauth_signature=y&max-results=5"),
      "/api/board/V2?group=1:2&max-results=5",
    );
    assert.equal(normalisedTarget("/api/star/V2?oauth_token=t"), "/api/star/V2");
    assert.equal(normalisedTarget("/api/star/V2"), "/api/star/V2");
    assert.equal(normalisedTarget("/api/board/V2?b=1&a=2"), "/api/board/V2?b=1&a=2");
  });

  it("sends a change's second once it has been over for a second, not a millisecond sooner", () => {
    const changedAt = Date.UTC(2026, 3, 1, 9, 0, 0, 400);
    const second = Date.UTC(2026, 3, 1, 9, 0, 0);
    const at = (now: number) => lastModifiedOf({ memberVersion: 1, groupVersions: 1, changedAt, now });
    assert.equal(at(changedAt), undefined);
    assert.equal(at(second + 1999), undefined);
    assert.equal(at(second + 2000), second);
    assert.equal(at(changedAt - 5000), undefined, "a clock that stepped back sends none");
  });
});
