import { z } from "zod";

/** Explicit S3 credentials (KAIRAN_S3_ACCESS_KEY_ID / KAIRAN_S3_SECRET_ACCESS_KEY). */
export interface S3Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** Stored files in an S3-compatible bucket (AWS S3, MinIO, Ceph RGW, ...). */
export interface S3Config {
  readonly kind: "s3";
  readonly bucket: string;
  /** Objects are named `<prefix>/<key>`, or `<key>` when empty; no leading or trailing slash. */
  readonly prefix: string;
  /** Another service than AWS (`http://minio:9000`); undefined: AWS's endpoint for the region. */
  readonly endpoint: string | undefined;
  readonly region: string;
  /** `endpoint/bucket/key` instead of `bucket.endpoint/key` (what MinIO and most self-hosted servers need). */
  readonly forcePathStyle: boolean;
  /** Undefined: the AWS SDK's standard chain (AWS_ACCESS_KEY_ID..., AWS_PROFILE, instance or container roles). */
  readonly credentials: S3Credentials | undefined;
}

/** Where stored files live: under the data directory (default), or in an S3-compatible bucket. */
export type BlobStoreConfig = { readonly kind: "local" } | S3Config;

/** Command-line values of the file-storage options, as strings, before validation. */
export interface BlobStoreFlags {
  readonly blobStore?: string | undefined;
  readonly s3Endpoint?: string | undefined;
  readonly s3Region?: string | undefined;
  readonly s3ForcePathStyle?: boolean | undefined;
}

/** Each field with its option (if any) and environment variable, for messages and --help. */
export const BLOB_STORE_SOURCES = {
  blobStore: { flag: "--blob-store", env: "KAIRAN_BLOB_STORE" },
  s3Endpoint: { flag: "--s3-endpoint", env: "KAIRAN_S3_ENDPOINT" },
  s3Region: { flag: "--s3-region", env: "KAIRAN_S3_REGION" },
  s3ForcePathStyle: { flag: "--s3-force-path-style", env: "KAIRAN_S3_FORCE_PATH_STYLE" },
  // Secrets only from the environment: a command line is visible to every user of the machine.
  s3AccessKeyId: { flag: undefined, env: "KAIRAN_S3_ACCESS_KEY_ID" },
  s3SecretAccessKey: { flag: undefined, env: "KAIRAN_S3_SECRET_ACCESS_KEY" },
} as const;

/** Fields never echoed in a message. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set(["s3SecretAccessKey"]);

// Bucket names as S3 allows them; a prefix of plain path segments (no empty, "." or ".." ones).
const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/([A-Za-z0-9!_.*'()/-]*))?$/;
const PREFIX_SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9!_.*'()-]+$/;

function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  const match = S3_URL.exec(value);
  if (!match?.[1]) return undefined;
  const prefix = (match[2] ?? "").replace(/\/+$/, "");
  if (prefix !== "" && !prefix.split("/").every((segment) => PREFIX_SEGMENT.test(segment))) return undefined;
  return { bucket: match[1], prefix };
}

/** The zod fields of the file-storage options, shared by the server's schema and `kairan copy`. */
export const blobStoreFields = {
  blobStore: z
    .string()
    .refine(
      (value) => parseS3Url(value) !== undefined,
      "must be s3://BUCKET or s3://BUCKET/PREFIX (bucket: 3-63 of a-z 0-9 . -)",
    )
    .optional(),
  s3Endpoint: z
    .string()
    .url("must be an absolute http(s) URL")
    .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://")
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  s3Region: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a region name such as eu-central-1")
    .default("us-east-1"),
  s3ForcePathStyle: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("0"),
  s3AccessKeyId: z.string().max(256, "must be at most 256 characters").optional(),
  s3SecretAccessKey: z.string().max(256, "must be at most 256 characters").optional(),
};

/** Raw file-storage values: flags over KAIRAN_* variables; the region also from AWS_REGION. */
export function rawBlobStore(flags: BlobStoreFlags, env: NodeJS.ProcessEnv) {
  return {
    blobStore: flags.blobStore ?? env.KAIRAN_BLOB_STORE,
    s3Endpoint: flags.s3Endpoint ?? env.KAIRAN_S3_ENDPOINT,
    s3Region: flags.s3Region || env.KAIRAN_S3_REGION || env.AWS_REGION || env.AWS_DEFAULT_REGION,
    s3ForcePathStyle: flags.s3ForcePathStyle ? "1" : env.KAIRAN_S3_FORCE_PATH_STYLE,
    s3AccessKeyId: env.KAIRAN_S3_ACCESS_KEY_ID,
    s3SecretAccessKey: env.KAIRAN_S3_SECRET_ACCESS_KEY,
  };
}

/** Problems between fields (each field alone may be fine): S3 settings without a bucket, half a key pair. */
export function blobStoreCrossProblems(
  raw: ReturnType<typeof rawBlobStore>,
  flags: BlobStoreFlags,
  env: NodeJS.ProcessEnv,
): string[] {
  const problems: string[] = [];
  if (raw.blobStore === undefined) {
    const stray = [
      raw.s3Endpoint !== undefined && "--s3-endpoint / KAIRAN_S3_ENDPOINT",
      (flags.s3Region || env.KAIRAN_S3_REGION) && "--s3-region / KAIRAN_S3_REGION",
      raw.s3ForcePathStyle !== undefined && "--s3-force-path-style / KAIRAN_S3_FORCE_PATH_STYLE",
      (raw.s3AccessKeyId !== undefined || raw.s3SecretAccessKey !== undefined) &&
        "KAIRAN_S3_ACCESS_KEY_ID / KAIRAN_S3_SECRET_ACCESS_KEY",
    ].filter((name): name is string => typeof name === "string");
    for (const name of stray)
      problems.push(`${name}: only applies with --blob-store s3://BUCKET (files are stored under --data)`);
  }
  if ((raw.s3AccessKeyId === undefined) !== (raw.s3SecretAccessKey === undefined)) {
    problems.push(
      "KAIRAN_S3_ACCESS_KEY_ID / KAIRAN_S3_SECRET_ACCESS_KEY: set both or neither (neither: the AWS SDK's standard credentials)",
    );
  }
  return problems;
}

/** The validated values as a BlobStoreConfig. */
export function blobStoreConfig(value: z.infer<z.ZodObject<typeof blobStoreFields>>): BlobStoreConfig {
  const location = value.blobStore === undefined ? undefined : parseS3Url(value.blobStore);
  if (!location) return { kind: "local" };
  return {
    kind: "s3",
    ...location,
    endpoint: value.s3Endpoint,
    region: value.s3Region,
    forcePathStyle: value.s3ForcePathStyle === "1" || value.s3ForcePathStyle === "true",
    credentials:
      value.s3AccessKeyId !== undefined && value.s3SecretAccessKey !== undefined
        ? { accessKeyId: value.s3AccessKeyId, secretAccessKey: value.s3SecretAccessKey }
        : undefined,
  };
}
