import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";

/**
 * A file being received: written through `stream`, then either committed under a key or
 * discarded. Nothing under a key ever holds a partial file.
 */
export interface TempBlob {
  /** Opaque to callers; the implementation finds its temporary file by it. */
  readonly handle: string;
  readonly stream: Writable;
}

/**
 * Where attachment and file bytes live: a local directory (the default) or an S3-compatible
 * bucket (src/blobs/s3.ts). Both receive into a local temporary file first, so callers never
 * see paths or objects, and a refused upload never reaches the shared storage.
 */
export interface BlobStore {
  /** Starts a temporary file to stream an upload into. */
  createTemp(): Promise<TempBlob>;
  /**
   * Puts a fully written temporary file under `key`, atomically (all of it or nothing). On
   * failure the temporary file stays, for {@link BlobStore.discard}.
   */
  commit(temp: TempBlob, key: string): Promise<void>;
  /** Stops writing and deletes a temporary file; safe to call twice or after a failed write or commit. */
  discard(temp: TempBlob): Promise<void>;
  /** Deletes the bytes under `key`; a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Streams the bytes under `key`; undefined when there are none. */
  open(key: string): Promise<Readable | undefined>;
  /** Removes temporary files that processes no longer running left behind; returns how many. */
  sweepTemp(): Promise<number>;
  /** Deletes this process's temporary files at once (synchronously): the last thing before exit. */
  removeTemp(): void;
  /** Lets go of connections; the store is not used afterwards. */
  close(): Promise<void>;
}

/** The store cannot be used as configured (S3: no such bucket, refused credentials, no answer). */
export class BlobStoreError extends Error {
  override name = "BlobStoreError";
}

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A fresh random key for new bytes: never derived from user input, so it is always a safe name. */
export function newBlobKey(): string {
  return randomUUID().replace(/-/g, "");
}

/** Whether `name` has the shape of a key (a file name or object name built from it stays where it belongs). */
export function isBlobKey(name: string): boolean {
  return KEY.test(name);
}

/** Returns a key after checking its shape. Keys come from our own rows, but a bad one must never escape the store. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key.slice(0, 40))}`);
  return key;
}
