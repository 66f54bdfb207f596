// Loaded into the soak's server process (`node --expose-gc --import ./bench/memory-probe.mjs`): on
// the soak's "memory?" over the IPC channel, collects garbage and answers process.memoryUsage().
// Nothing of it is in the product: only the soak starts the server this way.
if (process.send) {
  process.on("message", (message) => {
    if (message !== "memory?") return;
    globalThis.gc?.();
    const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
    process.send?.({ rss, heapUsed, heapTotal, external });
  });
}
