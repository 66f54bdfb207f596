import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** How often the background thread checkpoints. */
const CHECKPOINT_INTERVAL_MS = 100;

/**
 * The thread: its own connection to the file, a PASSIVE checkpoint every interval. PASSIVE never
 * waits for a lock and never makes a writer or a reader wait: it copies what the WAL holds into
 * the database file as far as the readers allow, and the next write starts the WAL over once all
 * of it has been copied. Source text, not a module of its own: a worker started from a module
 * runs without the TypeScript loader the tests and benchmarks use; the driver is passed by path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const database = new SQLite(workerData.file);
database.pragma("busy_timeout = 0");
// This connection writes no row; it must not checkpoint at commits of its own either.
database.pragma("wal_autocheckpoint = 0");
const timer = setInterval(() => {
  try {
    database.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // SQLITE_BUSY (another checkpoint runs): the next round copies what this one did not.
  }
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

/** A running background checkpointer. */
export interface Checkpointer {
  /** Stops the thread after its current checkpoint; resolves once it has ended. */
  stop(): Promise<void>;
}

/**
 * Starts checkpointing `file` from a thread of its own (WORKER_SOURCE), so that copying the
 * WAL into the database file is no longer done by whichever commit crossed the WAL threshold: with
 * automatic checkpoints, one commit in every few (a 5,000-member fan-out writes about 20 MB of
 * WAL) paid for copying 40 MB, which put a fan-out's mean at nearly twice its median
 * (bench/fanout.ts). The serving connection keeps a far larger automatic threshold as a backstop,
 * should the thread fall behind or fail (`onFailure` is told).
 */
export function startCheckpointer(file: string, onFailure: (error: Error) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // Like a timer, the thread alone must not keep the process alive (a CLI command, a test).
  worker.unref();
  let failed = false;
  worker.on("error", (error) => {
    failed = true;
    onFailure(error);
  });
  const ended = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  return {
    async stop() {
      if (failed) return;
      // Referenced again, or the process could exit before the thread has closed its connection.
      worker.ref();
      worker.postMessage("stop");
      await ended;
    },
  };
}
