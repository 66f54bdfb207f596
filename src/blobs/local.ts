import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { finished } from "node:stream/promises";
import { dirname, join } from "node:path";
import type { BlobStore, TempBlob } from "./blob-store.js";
import { type TempArea, openTempArea, sweepTempArea } from "./temp-area.js";

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The local blob store, with the temporary area the server cleans at start and at exit. */
export interface LocalBlobStore extends BlobStore {
  /** This process's temporary directory (removeAll() before exit). */
  readonly temp: TempArea;
  /** Removes temporary files of processes that are gone (temp-area.ts); returns how many. */
  sweepTemp(): Promise<number>;
}

/**
 * Blobs as files under `<dataDir>/blobs/<first two characters of the key>/<key>`, received into
 * this process's directory under `<dataDir>/tmp/` first. Both are on one file system, so commit
 * is a rename: atomic.
 */
export function openLocalBlobStore(dataDir: string): LocalBlobStore {
  const tmpRoot = join(dataDir, "tmp");
  const temp = openTempArea(tmpRoot);
  const blobDir = join(dataDir, "blobs");
  const pathOf = (key: string): string => {
    // Keys come from our own rows, but a path built from a bad one must never leave the directory.
    if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key.slice(0, 40))}`);
    return join(blobDir, key.slice(0, 2), key);
  };
  // The handle is the file's path: the area is chosen when the file is created.
  const tempPath = (blob: TempBlob): string => blob.handle;
  return {
    temp,
    sweepTemp: () => sweepTempArea(tmpRoot, temp),
    async createTemp() {
      const handle = join(await temp.dir(), `${randomUUID()}.part`);
      const stream = createWriteStream(handle, { flags: "wx" });
      return { handle, stream };
    },
    async commit(temp, key) {
      if (!temp.stream.writableFinished) await finished(temp.stream);
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      await rename(tempPath(temp), target);
    },
    async discard(temp) {
      // Destroy the sink, never the source (stack.md §5: a destroyed source can hang pipeline());
      // wait for its close so that no descriptor outlives the file.
      if (!temp.stream.closed) {
        temp.stream.destroy();
        await finished(temp.stream).catch(() => undefined);
      }
      await rm(tempPath(temp), { force: true });
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async open(key) {
      const path = pathOf(key);
      // Open first so a missing file is an answer (undefined), not a stream that errors later.
      const handle = await open(path, "r").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw error;
      });
      return handle?.createReadStream();
    },
  };
}
