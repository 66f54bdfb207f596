import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import type { S3Config } from "../../src/config/config.js";

// A real S3-compatible server (s3rver: the S3 REST API over a directory) in the test process, on an
// ephemeral 127.0.0.1 port: no network, no Docker. The SDK talks to it exactly as to MinIO or AWS;
// the only setting it needs is path-style URLs (bucket in the path, as with MinIO), since
// virtual-host names like BUCKET.127.0.0.1 do not resolve. SDK defaults (checksums) are kept.

/** s3rver's fixed credentials: it checks signatures against this secret. */
const ACCESS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;

/** A running S3-compatible server with one bucket. */
export interface TestS3 {
  readonly endpoint: string;
  readonly bucket: string;
  /** The server-side configuration for objects under `prefix` (a fresh one per call when omitted). */
  config(prefix?: string): S3Config;
  /** `kairan` options naming the same bucket and prefix. */
  args(prefix: string): string[];
  /** Environment for a `kairan` process: the keys. */
  readonly env: Readonly<Record<string, string>>;
  /** Object names under `prefix`, sorted: what is really in the bucket. */
  list(prefix: string): Promise<string[]>;
  /** Deletes one object behind the server's back. */
  deleteObject(name: string): Promise<void>;
  /** Stops the server (a test may stop it early to see a failure; a second call does nothing). */
  close(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 with an empty bucket, its files in a temporary directory. */
export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "kairan-s3-"));
  const bucket = "kairan-test";
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: ACCESS });
  let closed = false;
  const config = (prefix = `p${randomBytes(4).toString("hex")}`): S3Config => ({
    kind: "s3",
    bucket,
    prefix,
    endpoint,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: ACCESS,
  });
  return {
    endpoint,
    bucket,
    config,
    args: (prefix) => ["--blob-store", `s3://${bucket}/${prefix}`, "--s3-endpoint", endpoint, "--s3-force-path-style"],
    env: { KAIRAN_S3_ACCESS_KEY_ID: ACCESS.accessKeyId, KAIRAN_S3_SECRET_ACCESS_KEY: ACCESS.secretAccessKey },
    async list(prefix) {
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/`, ContinuationToken: token }),
        );
        names.push(...(page.Contents ?? []).map((object) => object.Key ?? ""));
        token = page.NextContinuationToken;
      } while (token);
      return names.sort();
    },
    async deleteObject(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: name }));
    },
    async close() {
      if (closed) return;
      closed = true;
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
