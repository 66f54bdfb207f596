import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Why this exists: Node's HTTP parser copies every chunk of a request body into a fresh
 * ArrayBuffer. Once an upload's chunk is on disk it is garbage, but V8 frees such buffers only at a
 * young-generation collection, and it forces one for their sake only after 2 x its default
 * semi-space (2 x 16 MB on 64-bit; V8 11 `Heap::AllocateExternalBackingStore`, not moved by
 * `--max-semi-space-size`) of them have piled up. An upload allocates almost no JS objects, so
 * nothing else triggers a collection: a 50 MB upload grew the process by 31-33 MB of dead chunks.
 * Asking for a minor collection after every few MB received bounds that pile; the price is one
 * scavenge (about a millisecond) per step, paid only by processes that receive uploads.
 */
const DEFAULT_STEP_BYTES = 8 * 1024 * 1024;

/** Counts bytes received from clients and reclaims their dead buffers every `stepBytes`. */
export interface ReceivedBytes {
  add(bytes: number): void;
}

/** A minor (young-generation) collection. */
export type MinorCollection = () => void;

/** The counter, with the collection it runs (injectable so the counting is testable on its own). */
export function receivedBytesCounter(collect: MinorCollection, stepBytes = DEFAULT_STEP_BYTES): ReceivedBytes {
  let sinceCollection = 0;
  return {
    add(bytes) {
      sinceCollection += bytes;
      if (sinceCollection < stepBytes) return;
      sinceCollection = 0;
      collect();
    },
  };
}

type GcFunction = (options?: { type?: "minor" | "major" }) => void;

/**
 * V8's own `gc`, taken from a fresh context created while `--expose-gc` is briefly set (the flag
 * only installs `gc` in contexts created after it). The flag is restored at once, so no code of
 * ours or of our dependencies sees a global `gc` it did not have.
 */
export function v8MinorCollection(): MinorCollection {
  const existing = (globalThis as { gc?: GcFunction }).gc;
  const gc = existing ?? exposeGc();
  return () => gc({ type: "minor" });
}

function exposeGc(): GcFunction {
  setFlagsFromString("--expose-gc");
  try {
    const gc: unknown = runInNewContext("gc");
    if (typeof gc !== "function") throw new Error("V8 did not expose gc()");
    return gc as GcFunction;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

let processCounter: ReceivedBytes | undefined;

/** The process-wide counter: dead chunks of concurrent uploads pile up in one heap. */
export function receivedBytes(): ReceivedBytes {
  processCounter ??= receivedBytesCounter(v8MinorCollection());
  return processCounter;
}
