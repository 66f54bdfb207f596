import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Where file bytes live; rows in the store hold only the key. */
export interface BlobStore {
  /** Stores the bytes under `key` (replacing nothing: keys are fresh); resolves with the byte count. */
  put(key: string, data: Readable | Uint8Array): Promise<number>;
  /** A stream of the bytes stored under `key`. */
  open(key: string): Promise<Readable>;
  /** Removes the bytes; removing a missing key is not an error. */
  remove(key: string): Promise<void>;
}

/** A fresh, unguessable key. */
export function newBlobKey(): string {
  return randomUUID();
}

const KEY = /^[a-z0-9][a-z0-9.-]{0,99}$/;

function checkedKey(key: string): string {
  // Keys become file names: refuse anything that could leave the directory.
  if (!KEY.test(key) || key.includes("..")) throw new Error(`not a blob key: ${key.slice(0, 40)}`);
  return key;
}

/** The blob directory of a data directory. */
export function blobDirectory(dataDir: string): string {
  return join(dataDir, "blobs");
}

/**
 * Blobs as files in one directory. A write goes to a temporary file first and is renamed into
 * place, so a crash mid-write never leaves a truncated blob under a live key.
 */
export function localBlobStore(directory: string): BlobStore {
  const pathOf = (key: string) => join(directory, checkedKey(key));
  return {
    async put(key, data) {
      const target = pathOf(key);
      await mkdir(directory, { recursive: true });
      const temporary = join(directory, `.tmp-${randomUUID()}`);
      let size = 0;
      const source = data instanceof Readable ? data : Readable.from([data]);
      source.on("data", (chunk: Buffer) => (size += chunk.length));
      try {
        await pipeline(source, createWriteStream(temporary, { flags: "wx" }));
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return size;
    },
    async open(key) {
      const stream = createReadStream(pathOf(key));
      // Surface a missing blob as a rejected promise rather than a stream error after headers went out.
      await new Promise<void>((resolve, reject) => stream.once("open", () => resolve()).once("error", reject));
      return stream;
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
