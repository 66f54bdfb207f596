import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type BlobStore, checkBlobKey, isBlobKey } from "./blob-store.js";
import { tempArea } from "./temp-area.js";

/**
 * Blobs as files under `<dataDir>/blobs/<first two characters of the key>/<key>`, received into
 * this process's directory under `<dataDir>/tmp/` first (temp-area.ts). Both are on one file system,
 * so commit is a rename: atomic.
 */
export function openLocalBlobStore(dataDir: string): BlobStore {
  const temps = tempArea(join(dataDir, "tmp"));
  const pathOf = (key: string): string => join(localBlobDir(dataDir), key.slice(0, 2), checkBlobKey(key));
  return {
    createTemp: () => temps.create(),
    async commit(temp, key) {
      const target = pathOf(key);
      const written = await temps.written(temp);
      await mkdir(dirname(target), { recursive: true });
      await rename(written, target);
    },
    discard: (temp) => temps.discard(temp),
    sweepTemp: () => temps.sweep(),
    removeTemp: () => temps.removeAll(),
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
    async close() {},
  };
}

/** Where a local installation keeps its stored files. */
export function localBlobDir(dataDir: string): string {
  return join(dataDir, "blobs");
}

/** A stored file of a local installation: its key and where it is. */
export interface LocalBlob {
  readonly key: string;
  readonly path: string;
}

/**
 * Every stored file under `<dataDir>/blobs`, for moving an installation elsewhere. Names that
 * are not keys (an editor's backup, `.DS_Store`) are handed to `onStray` and skipped.
 */
export async function* listLocalBlobs(dataDir: string, onStray: (path: string) => void): AsyncGenerator<LocalBlob> {
  const root = localBlobDir(dataDir);
  const shards = await readdir(root, { withFileTypes: true }).catch(() => []);
  for (const shard of shards.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!shard.isDirectory()) {
      onStray(join(root, shard.name));
      continue;
    }
    const entries = await readdir(join(root, shard.name), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(root, shard.name, entry.name);
      if (entry.isFile() && isBlobKey(entry.name) && entry.name.startsWith(shard.name)) yield { key: entry.name, path };
      else onStray(path);
    }
  }
}
