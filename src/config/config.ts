import { resolve } from "node:path";
import { z } from "zod";
import { parseTimeZone } from "../domain/user.js";
import {
  BLOB_STORE_SOURCES,
  type BlobStoreConfig,
  type BlobStoreFlags,
  SECRET_FIELDS,
  blobStoreConfig,
  blobStoreCrossProblems,
  blobStoreFields,
  rawBlobStore,
} from "./blob-store.js";

import {
  MAIL_SECRET_FIELDS,
  MAIL_SOURCES,
  type MailConfig,
  type MailFlags,
  mailFields,
  rawMail,
  toMailConfig,
} from "./mail.js";
import {
  METRICS_SOURCES,
  type MetricsConfig,
  type MetricsFlags,
  metricsCrossProblems,
  metricsFields,
  rawMetrics,
  toMetricsConfig,
} from "./metrics.js";
import {
  LIMIT_SOURCES,
  type LimitFlags,
  type LimitsConfig,
  limitsSchema,
  rawLimits,
  toLimitsConfig,
} from "./limits.js";

export type { BlobStoreConfig, BlobStoreFlags, S3Config, S3Credentials } from "./blob-store.js";
export type { MailConfig } from "./mail.js";
export type { MetricsConfig } from "./metrics.js";

/** Where rows live: the embedded SQLite file in the data directory, or a PostgreSQL server. */
export type StoreConfig =
  | { readonly kind: "sqlite"; readonly file: string; readonly synchronous?: SqliteSynchronous }
  | { readonly kind: "postgres"; readonly url: string };

/**
 * SQLite's `synchronous` under WAL: "normal" survives a killed process (the WAL is in the OS page
 * cache at commit); "full" also survives a power cut by syncing the WAL at every commit (docs/operations.md "Durability").
 */
export type SqliteSynchronous = "normal" | "full";

/** The whole configuration of a server process, validated once and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** SQLite database (when used) and stored files. */
  readonly dataDir: string;
  readonly store: StoreConfig;
  /** Where attachment and file bytes live; temporary upload files stay under `dataDir` either way. */
  readonly blobStore: BlobStoreConfig;
  /** `{base_url}` when set; otherwise the listening address is used. */
  readonly publicUrl: string | undefined;
  readonly demo: boolean;
  readonly locale: "ja" | "en";
  /** The IANA time zone of pages whose reader chose none (and of signed-out pages). */
  readonly timeZone: string;
  readonly logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Rate limits, sign-in throttling, uploads, timeouts (config/limits.ts). */
  readonly limits: LimitsConfig;
  /** `GET /metrics`: off unless enabled; loopback or bearer token only (config/metrics.ts). */
  readonly metrics: MetricsConfig;
  /** Whether people may make their own accounts (the sign-up page, invitation links); off by default. */
  readonly allowSignup: boolean;
  /** Outgoing mail (SMTP or the outbox folder) and the inbound listener for replies (config/mail.ts). */
  readonly mail: MailConfig;
  /** Whether webhooks may reach private addresses (loopback, private ranges, link-local); off by default. */
  readonly webhookAllowPrivate: boolean;
}

/** Command-line values, as strings, before validation (undefined = not given). */
export interface ConfigFlags extends BlobStoreFlags, MetricsFlags, MailFlags {
  readonly port?: string | undefined;
  readonly host?: string | undefined;
  readonly data?: string | undefined;
  readonly database?: string | undefined;
  readonly publicUrl?: string | undefined;
  readonly noDemo?: boolean | undefined;
  readonly locale?: string | undefined;
  readonly timeZone?: string | undefined;
  readonly logLevel?: string | undefined;
  readonly sqliteSync?: string | undefined;
  /** Server limits (`kairan serve` only). */
  readonly limits?: LimitFlags | undefined;
  /** `--allow-signup` (`kairan serve` only). */
  readonly allowSignup?: boolean | undefined;
  /** `--webhook-allow-private` (`kairan serve` only). */
  readonly webhookAllowPrivate?: boolean | undefined;
}

/** Every configuration problem at once, one line each. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/** Each field with the option and environment variable that set it, for messages and --help. */
export const CONFIG_SOURCES = {
  port: { flag: "--port", env: "KAIRAN_PORT" },
  host: { flag: "--host", env: "KAIRAN_HOST" },
  dataDir: { flag: "--data", env: "KAIRAN_DATA_DIR" },
  databaseUrl: { flag: "--database", env: "KAIRAN_DATABASE_URL" },
  publicUrl: { flag: "--public-url", env: "KAIRAN_PUBLIC_URL" },
  demo: { flag: "--no-demo", env: "KAIRAN_DEMO" },
  locale: { flag: "--locale", env: "KAIRAN_LOCALE" },
  timeZone: { flag: "--time-zone", env: "KAIRAN_TIME_ZONE" },
  logLevel: { flag: "--log-level", env: "KAIRAN_LOG_LEVEL" },
  sqliteSync: { flag: "--sqlite-sync", env: "KAIRAN_SQLITE_SYNC" },
  allowSignup: { flag: "--allow-signup", env: "KAIRAN_ALLOW_SIGNUP" },
  webhookAllowPrivate: { flag: "--webhook-allow-private", env: "KAIRAN_WEBHOOK_ALLOW_PRIVATE" },
  ...LIMIT_SOURCES,
  ...BLOB_STORE_SOURCES,
  ...METRICS_SOURCES,
  ...MAIL_SOURCES,
} as const;

/** Fields never echoed in a message. */
const SECRETS: ReadonlySet<string> = new Set([...SECRET_FIELDS, ...MAIL_SECRET_FIELDS, "metricsToken"]);

const httpUrl = z
  .string()
  .url("must be an absolute http(s) URL")
  .refine((value) => /^https?:\/\//i.test(value), "must start with http:// or https://")
  .transform((value) => value.replace(/\/+$/, ""));

const schema = z.object({
  port: z.coerce.number().int("must be an integer").min(0).max(65535, "must be 0-65535").default(8080),
  host: z.string().min(1, "must not be empty").default("127.0.0.1"),
  dataDir: z.string().min(1, "must not be empty").default("./data"),
  databaseUrl: z
    .string()
    .refine((value) => /^postgres(ql)?:\/\//.test(value), "must be a postgres:// URL")
    .optional(),
  publicUrl: httpUrl.optional(),
  demo: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("1"),
  locale: z.enum(["ja", "en"], { message: "must be ja or en" }).default("ja"),
  timeZone: z
    .string()
    .refine(isTimeZone, "must be an IANA time zone such as Asia/Tokyo or UTC")
    .transform((value) => parseTimeZone(value) ?? "UTC")
    .default("UTC"),
  logLevel: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], { message: "must be a pino level" })
    .default("info"),
  sqliteSync: z.enum(["normal", "full"], { message: "must be normal or full" }).default("normal"),
  allowSignup: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("0"),
  webhookAllowPrivate: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("0"),
  ...limitsSchema,
  ...blobStoreFields,
  ...metricsFields,
  ...mailFields,
});

function isTimeZone(value: string): boolean {
  try {
    return parseTimeZone(value) !== null;
  } catch {
    return false;
  }
}

/**
 * Reads flags over environment over defaults, validates everything, and returns a frozen Config.
 * This is the only place that reads the environment: the one it is given (the command line's,
 * which bin/kairan.js takes from the process).
 * @throws ConfigError listing every bad value
 */
export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): Config {
  const raw = emptyToUndefined({
    port: flags.port ?? env.KAIRAN_PORT,
    host: flags.host ?? env.KAIRAN_HOST,
    dataDir: flags.data ?? env.KAIRAN_DATA_DIR,
    databaseUrl: flags.database ?? env.KAIRAN_DATABASE_URL,
    publicUrl: flags.publicUrl ?? env.KAIRAN_PUBLIC_URL,
    demo: flags.noDemo ? "0" : env.KAIRAN_DEMO,
    locale: flags.locale ?? env.KAIRAN_LOCALE,
    timeZone: flags.timeZone ?? env.KAIRAN_TIME_ZONE,
    logLevel: flags.logLevel ?? env.KAIRAN_LOG_LEVEL,
    sqliteSync: flags.sqliteSync ?? env.KAIRAN_SQLITE_SYNC,
    allowSignup: flags.allowSignup ? "1" : env.KAIRAN_ALLOW_SIGNUP,
    webhookAllowPrivate: flags.webhookAllowPrivate ? "1" : env.KAIRAN_WEBHOOK_ALLOW_PRIVATE,
    ...rawLimits(flags.limits ?? {}, env),
    ...rawBlobStore(flags, env),
    ...rawMetrics(flags, env),
    ...rawMail(flags, env),
  });
  // Node refuses a server whose headers may take longer than the whole request.
  const withTimeouts = schema.refine((value) => value.headersTimeout <= value.requestTimeout, {
    path: ["headersTimeout"],
    message: "must not be longer than --request-timeout",
  });
  const value = validate(withTimeouts, raw, [...blobStoreCrossProblems(raw, flags, env), ...metricsCrossProblems(raw)]);
  const dataDir = resolve(value.dataDir);
  return Object.freeze({
    port: value.port,
    host: value.host,
    dataDir,
    store: value.databaseUrl
      ? { kind: "postgres", url: value.databaseUrl }
      : { kind: "sqlite", file: resolve(dataDir, "kairan.sqlite"), synchronous: value.sqliteSync },
    blobStore: Object.freeze(blobStoreConfig(value)),
    publicUrl: value.publicUrl,
    demo: value.demo === "1" || value.demo === "true",
    locale: value.locale,
    timeZone: value.timeZone,
    logLevel: value.logLevel,
    limits: toLimitsConfig(value),
    metrics: toMetricsConfig(value),
    allowSignup: value.allowSignup === "1" || value.allowSignup === "true",
    mail: toMailConfig(value, { publicUrl: value.publicUrl, host: value.host }),
    webhookAllowPrivate: value.webhookAllowPrivate === "1" || value.webhookAllowPrivate === "true",
  } satisfies Config);
}

/**
 * Only the file-storage options, for commands that move files but serve nothing (`kairan copy`).
 * @throws ConfigError listing every bad value
 */
export function loadBlobStoreConfig(flags: BlobStoreFlags, env: NodeJS.ProcessEnv): BlobStoreConfig {
  const raw = emptyToUndefined(rawBlobStore(flags, env));
  return Object.freeze(
    blobStoreConfig(validate(z.object(blobStoreFields), raw, blobStoreCrossProblems(raw, flags, env))),
  );
}

/** Parses `raw`; field problems and cross-field `problems` are thrown together, never one at a time. */
function validate<S extends z.ZodType>(
  schema: S,
  raw: Record<string, string | undefined>,
  problems: readonly string[],
): z.infer<S> {
  const parsed = schema.safeParse(raw);
  const fieldProblems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => {
        const key = String(issue.path[0]) as keyof typeof CONFIG_SOURCES;
        const source = CONFIG_SOURCES[key];
        const names = [source.flag, source.env].filter((name) => name !== undefined).join(" / ");
        const got = SECRETS.has(key) ? "(hidden)" : JSON.stringify(raw[key]);
        return `${names}: ${issue.message} (got ${got})`;
      });
  if (!parsed.success || problems.length > 0) throw new ConfigError([...fieldProblems, ...problems]);
  return parsed.data;
}

function emptyToUndefined<T extends Record<string, string | undefined>>(raw: T): T {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(raw)) out[key] = value === "" ? undefined : value;
  return out as T;
}
