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
 * Where attachment and file bytes live. Local directory now; the PostgreSQL deployment adds an
 * S3 implementation of the same interface, so callers never see paths.
 */
export interface BlobStore {
  /** Starts a temporary file to stream an upload into. */
  createTemp(): Promise<TempBlob>;
  /** Moves a fully written temporary file under `key`, atomically (all of it or nothing). */
  commit(temp: TempBlob, key: string): Promise<void>;
  /** Stops writing and deletes a temporary file; safe to call twice or after a failed write. */
  discard(temp: TempBlob): Promise<void>;
  /** Deletes the bytes under `key`; a missing key is not an error. */
  remove(key: string): Promise<void>;
  /** Streams the bytes under `key`; undefined when there are none. */
  open(key: string): Promise<Readable | undefined>;
}

/** A fresh random key for new bytes: never derived from user input, so it is always a safe name. */
export function newBlobKey(): string {
  return randomUUID().replace(/-/g, "");
}
