import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, NoSuchKey, S3Client } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { S3Config } from "../config/config.js";
import { type BlobStore, BlobStoreError, checkBlobKey } from "./blob-store.js";
import { tempArea } from "./temp-area.js";

/** Smallest part S3 accepts; with two in flight, one commit holds at most about 15 MB in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Blobs as objects `<prefix>/<key>` in an S3-compatible bucket, so that server processes on
 * several machines share them. Uploads are received into `tmpDir` (a local temporary file)
 * exactly as with the local store, and sent to the bucket only on commit:
 *
 * - a refused or broken upload (too many files, a cut connection, a failed transaction) never
 *   reaches the bucket, so nothing is left there to clean up, even if the process dies;
 * - a commit is one streamed upload (multipart above 5 MB, aborted by the SDK on failure), and
 *   S3 shows an object only once it is complete: all of it or nothing, as with the rename.
 *
 * The price is a local write and read per file. Streaming the request straight into a
 * temporary object would spare that, but would leave objects behind on every crash and need a
 * server-side copy on commit.
 * @throws BlobStoreError when the bucket does not answer as configured
 */
export async function openS3BlobStore(config: S3Config, tmpDir: string): Promise<BlobStore> {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
  });
  await checkBucket(client, config);
  const temps = tempArea(tmpDir);
  const Bucket = config.bucket;
  const objectKey = (key: string): string =>
    config.prefix === "" ? checkBlobKey(key) : `${config.prefix}/${checkBlobKey(key)}`;
  return {
    createTemp: () => temps.create(),
    async commit(temp, key) {
      const path = await temps.written(temp);
      // lib-storage cuts the stream into parts (a body of unknown length cannot go in one PUT);
      // this also avoids the SDK's aws-chunked stream encoding, which some S3-compatible servers lack.
      const body = createReadStream(path);
      try {
        await new Upload({
          client,
          params: { Bucket, Key: objectKey(key), Body: body },
          partSize: PART_BYTES,
          queueSize: PARTS_IN_FLIGHT,
        }).done();
      } finally {
        body.destroy();
      }
      await rm(path, { force: true });
    },
    discard: (temp) => temps.discard(temp),
    sweepTemp: () => temps.sweep(),
    removeTemp: () => temps.removeAll(),
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async open(key) {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        if (!(Body instanceof Readable)) throw new Error(`S3 GetObject for ${key} returned no readable body`);
        return Body;
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    async close() {
      client.destroy();
    },
  };
}

/** A wrong bucket, endpoint or key stops the start with one message instead of failing every upload later. */
async function checkBucket(client: S3Client, config: S3Config): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }));
  } catch (error) {
    client.destroy();
    const where = `s3://${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ` (AWS, ${config.region})`}`;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason =
      status === 404
        ? "no such bucket"
        : status === 403
          ? "access denied (credentials or permissions)"
          : (error as Error).message || (error as Error).name;
    throw new BlobStoreError(`cannot use ${where}: ${reason}`, { cause: error });
  }
}
