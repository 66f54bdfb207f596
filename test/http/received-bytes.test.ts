// test-run: serial: it measures this process's memory after a collection that V8 finishes on a background thread, which a loaded machine delays
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, it } from "node:test";
import { receivedBytesCounter, v8MinorCollection } from "../../src/http/received-bytes.js";

const MB = 1024 * 1024;

describe("received bytes: dead upload chunks are reclaimed as they pile up", () => {
  it("collects once per step of bytes, across calls of any size", () => {
    let collections = 0;
    const counter = receivedBytesCounter(() => void collections++, 8 * MB);
    for (let i = 0; i < 7; i++) counter.add(MB);
    assert.equal(collections, 0, "7 MB: below the step");
    counter.add(MB);
    assert.equal(collections, 1, "8 MB: one step");
    counter.add(20 * MB);
    assert.equal(collections, 2, "a big chunk counts once and starts a new step");
  });

  it("V8's minor collection frees dropped buffers, without leaving a global gc behind", async () => {
    const collect = v8MinorCollection();
    assert.equal((globalThis as { gc?: unknown }).gc, undefined);
    await sleep(1);
    const before = process.memoryUsage().arrayBuffers;
    // What the HTTP parser does for a body: fresh buffers, dropped once used.
    for (let i = 0; i < 16; i++) assert.equal(Buffer.alloc(MB, i).length, MB);
    assert.ok(process.memoryUsage().arrayBuffers - before >= 16 * MB, "the buffers are still counted");
    collect();
    // V8 frees the backing stores of dead buffers on a background thread after the collection.
    let grown = Infinity;
    for (let waited = 0; waited < 2000 && grown >= 4 * MB; waited += 10) {
      await sleep(10);
      grown = process.memoryUsage().arrayBuffers - before;
    }
    assert.ok(grown < 4 * MB, `16 MB of dropped buffers still held ${grown} bytes after the collection`);
  });
});
