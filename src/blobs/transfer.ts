import { createReadStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { BlobStore } from "./blob-store.js";
import { listLocalBlobs } from "./local.js";

/**
 * Copies every stored file of a local installation (`<dataDir>/blobs`) into `target` under the
 * same key, one at a time, through the store's own commit. Copying again overwrites each
 * object with the same bytes, so an interrupted run can simply be repeated.
 * Resolves with the number of files copied.
 */
export async function copyLocalBlobs(
  fromDataDir: string,
  target: BlobStore,
  onStray: (path: string) => void,
): Promise<number> {
  let copied = 0;
  for await (const blob of listLocalBlobs(fromDataDir, onStray)) {
    const temp = await target.createTemp();
    try {
      await pipeline(createReadStream(blob.path), temp.stream);
      await target.commit(temp, blob.key);
    } catch (error) {
      await target.discard(temp);
      throw error;
    }
    copied += 1;
  }
  return copied;
}
