import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import type { TempBlob } from "./blob-store.js";

/** The local directory uploads are received into, whichever store they are committed to. */
export interface TempArea {
  create(): Promise<TempBlob>;
  /** The temporary file's path once everything written to it is on disk. */
  written(temp: TempBlob): Promise<string>;
  /** Ends the write (if any) and deletes the file; safe to repeat. */
  discard(temp: TempBlob): Promise<void>;
}

/** Temporary files `<dir>/<uuid>.part`, created exclusively. */
export function tempArea(dir: string): TempArea {
  const pathOf = (temp: TempBlob): string => join(dir, temp.handle);
  return {
    async create() {
      await mkdir(dir, { recursive: true });
      const handle = `${randomUUID()}.part`;
      return { handle, stream: createWriteStream(join(dir, handle), { flags: "wx" }) };
    },
    async written(temp) {
      if (!temp.stream.writableFinished) await finished(temp.stream);
      return pathOf(temp);
    },
    async discard(temp) {
      // Destroy the sink, never the source (stack.md §5: a destroyed source can hang pipeline());
      // wait for its close so that no descriptor outlives the file.
      if (!temp.stream.closed) {
        temp.stream.destroy();
        await finished(temp.stream).catch(() => undefined);
      }
      await rm(pathOf(temp), { force: true });
    },
  };
}
