import type { Readable } from "node:stream";
import { type BlobStore, newBlobKey } from "../blobs/blob-store.js";
import { readImage } from "../blobs/image.js";
import { mimeTypeOf, sniffImageType } from "../domain/file.js";
import type { NewFileVersion } from "../store/store.js";

/** The bytes of a new version and who uploaded them. */
export interface Upload {
  readonly fileName: string;
  readonly source: Readable | Uint8Array;
  readonly authorId: number;
  readonly comment: string;
}

/**
 * Streams the bytes into the blob store and reads what the feed shows of them: size, type, and
 * for images width, height and a thumbnail (stored as its own blob). Runs before the
 * transaction that records the version; {@link discardFileBytes} undoes it when that fails.
 */
export async function storeFileBytes(blobs: BlobStore, upload: Upload, at: number): Promise<NewFileVersion> {
  const blobKey = newBlobKey();
  const size = await blobs.put(blobKey, upload.source);
  const head = await readHead(blobs, blobKey);
  const facts = sniffImageType(head) ? await readImage(() => blobs.open(blobKey)) : undefined;
  const thumbnailKey = facts ? `${blobKey}.thumbnail` : null;
  if (facts && thumbnailKey) await blobs.put(thumbnailKey, facts.thumbnail);
  return {
    fileName: upload.fileName,
    size,
    mimeType: mimeTypeOf(upload.fileName, head),
    blobKey,
    width: facts?.width ?? null,
    height: facts?.height ?? null,
    thumbnailKey,
    authorId: upload.authorId,
    comment: upload.comment,
    at,
  };
}

/** Removes the blobs of a version that was never recorded. */
export async function discardFileBytes(blobs: BlobStore, version: NewFileVersion): Promise<void> {
  await blobs.remove(version.blobKey);
  if (version.thumbnailKey !== null) await blobs.remove(version.thumbnailKey);
}

async function readHead(blobs: BlobStore, key: string): Promise<Buffer> {
  const stream = await blobs.open(key);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= 16) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, 16);
}
