import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type BlobStore, type TempBlob, newBlobKey } from "../../blobs/blob-store.js";
import { readImage } from "../../blobs/image.js";
import { isIndexedText, mimeTypeOf, sniffImageType } from "../../domain/file.js";
import { SEARCH_LIMITS } from "../../domain/limits.js";
import type { NewFileVersion } from "../../store/queries/files.repo.js";

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
  const size = await writeBlob(blobs, blobKey, upload.source);
  return describeStoredBytes(blobs, blobKey, size, upload, at);
}

/**
 * The same for bytes already received into the temporary area (a web upload): they are put in
 * place under a new key, then read like {@link storeFileBytes} reads them.
 */
export async function storeStagedFileBytes(
  blobs: BlobStore,
  temp: TempBlob,
  upload: Omit<Upload, "source"> & { readonly size: number },
  at: number,
): Promise<NewFileVersion> {
  const blobKey = newBlobKey();
  await blobs.commit(temp, blobKey);
  return describeStoredBytes(blobs, blobKey, upload.size, upload, at);
}

async function describeStoredBytes(
  blobs: BlobStore,
  blobKey: string,
  size: number,
  upload: Omit<Upload, "source">,
  at: number,
): Promise<NewFileVersion> {
  try {
    const head = await readHead(blobs, blobKey);
    const facts = sniffImageType(head) ? await readImage(() => openBlob(blobs, blobKey)) : undefined;
    const thumbnailKey = facts?.thumbnail ? `${blobKey}.thumbnail` : null;
    if (facts?.thumbnail && thumbnailKey) await writeBlob(blobs, thumbnailKey, facts.thumbnail);
    const mimeType = mimeTypeOf(upload.fileName, head);
    return {
      fileName: upload.fileName,
      size,
      mimeType,
      blobKey,
      width: facts?.width ?? null,
      height: facts?.height ?? null,
      thumbnailKey,
      authorId: upload.authorId,
      comment: upload.comment,
      at,
      ...(isIndexedText(mimeType) ? { searchText: await readTextStart(blobs, blobKey) } : {}),
    };
  } catch (error) {
    await blobs.remove(blobKey);
    throw error;
  }
}

/** Runs `record` (the transaction that records a version); when it fails, the version's stored bytes go. */
export async function recordOrDiscard<T>(
  blobs: BlobStore,
  version: NewFileVersion,
  record: () => Promise<T>,
): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await discardFileBytes(blobs, version);
    throw error;
  }
}

/** Removes the blobs of a version that was never recorded. */
export async function discardFileBytes(blobs: BlobStore, version: NewFileVersion): Promise<void> {
  await blobs.remove(version.blobKey);
  if (version.thumbnailKey !== null) await blobs.remove(version.thumbnailKey);
}

/**
 * Streams bytes into a temporary blob and commits them under `key` (the blob store's only way
 * in, shared with comment attachments); nothing is left behind when the write fails.
 * Resolves with the byte count.
 */
async function writeBlob(blobs: BlobStore, key: string, data: Readable | Uint8Array): Promise<number> {
  const temp = await blobs.createTemp();
  let size = 0;
  const source = data instanceof Uint8Array ? Readable.from([data]) : data;
  source.on("data", (chunk: Buffer) => (size += chunk.length));
  try {
    await pipeline(source, temp.stream);
    await blobs.commit(temp, key);
  } catch (error) {
    await blobs.discard(temp);
    throw error;
  }
  return size;
}

async function openBlob(blobs: BlobStore, key: string): Promise<Readable> {
  const stream = await blobs.open(key);
  if (!stream) throw new Error(`blob ${key} vanished while it was being read`);
  return stream;
}

async function readHead(blobs: BlobStore, key: string): Promise<Buffer> {
  const stream = await openBlob(blobs, key);
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

/**
 * The start of a plain-text blob (SEARCH_LIMITS.fileTextBytes), decoded as UTF-8, for the search
 * index; a character cut at the end, or bytes that are not UTF-8, become nothing rather than noise.
 */
export async function readTextStart(blobs: BlobStore, key: string): Promise<string> {
  const stream = await openBlob(blobs, key);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length >= SEARCH_LIMITS.fileTextBytes) break;
  }
  stream.destroy();
  const bytes = Buffer.concat(chunks).subarray(0, SEARCH_LIMITS.fileTextBytes);
  return new TextDecoder("utf-8")
    .decode(bytes)
    .replace(/\uFFFD/g, "")
    .replaceAll("\u0000", ""); // PostgreSQL's text cannot hold NUL
}
