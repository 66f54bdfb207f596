import { type ParseArgsConfig, parseArgs } from "node:util";
import type { BlobStoreFlags, ConfigFlags } from "../config/config.js";

/** Where stored files go: shared by the server's options and `kairan copy`. */
export const BLOB_STORE_OPTIONS = {
  "blob-store": { type: "string" },
  "s3-endpoint": { type: "string" },
  "s3-region": { type: "string" },
  "s3-force-path-style": { type: "boolean" },
} as const;

/** Help text for the file-storage options. */
export const BLOB_STORE_OPTIONS_HELP = `  --blob-store s3://BUCKET[/PREFIX]
                      KAIRAN_BLOB_STORE    keep stored files in an S3-compatible bucket instead
                                           of DIR/blobs (uploads are still received in DIR/tmp)
  --s3-endpoint URL   KAIRAN_S3_ENDPOINT   another service than AWS (http://minio:9000)
  --s3-region R       KAIRAN_S3_REGION     region (else AWS_REGION, else us-east-1)
  --s3-force-path-style
                      KAIRAN_S3_FORCE_PATH_STYLE=1  URLs endpoint/bucket/key (MinIO, most
                                           self-hosted servers)
                      KAIRAN_S3_ACCESS_KEY_ID, KAIRAN_S3_SECRET_ACCESS_KEY: keys (environment
                                           only); unset: AWS_ACCESS_KEY_ID..., profiles, roles`;

/** The server options every command that opens the store shares (docs/operations.md). */
export const SERVER_OPTIONS = {
  ...BLOB_STORE_OPTIONS,
  port: { type: "string" },
  host: { type: "string" },
  data: { type: "string" },
  database: { type: "string" },
  "public-url": { type: "string" },
  "no-demo": { type: "boolean" },
  locale: { type: "string" },
  "time-zone": { type: "string" },
  "log-level": { type: "string" },
  "sqlite-sync": { type: "string" },
  "smtp-url": { type: "string" },
  "mail-from": { type: "string" },
  "mail-domain": { type: "string" },
  "smtp-inbound-port": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Options only `kairan serve` has: the limits of the HTTP server (config/limits.ts). */
export const LIMIT_OPTIONS = {
  "no-rate-limit": { type: "boolean" },
  "rate-limit-address": { type: "string" },
  "rate-limit-token": { type: "string" },
  "rate-limit-window": { type: "string" },
  "trust-proxy": { type: "string" },
  "login-limit-account": { type: "string" },
  "login-limit-address": { type: "string" },
  "login-limit-untrusted": { type: "string" },
  "max-uploads": { type: "string" },
  "import-upload-mb": { type: "string" },
  "feed-cache-mb": { type: "string" },
  "headers-timeout": { type: "string" },
  "request-timeout": { type: "string" },
  "keep-alive-timeout": { type: "string" },
  "idle-timeout": { type: "string" },
  "shutdown-grace": { type: "string" },
  "streams-per-user": { type: "string" },
  "streams-per-address": { type: "string" },
  "stream-lifetime": { type: "string" },
  metrics: { type: "boolean" },
} as const;

/** Help text for the limit options (defaults: docs/operations.md "Limits"). */
export const LIMIT_OPTIONS_HELP = `Limits (each also read from its environment variable; times in seconds):
  --no-rate-limit             KAIRAN_RATE_LIMIT=0          turn request rate limiting off
  --rate-limit-address N      KAIRAN_RATE_LIMIT_ADDRESS    requests per window per client address (3000)
  --rate-limit-token N        KAIRAN_RATE_LIMIT_TOKEN      requests per window per token (1200)
  --rate-limit-window S       KAIRAN_RATE_LIMIT_WINDOW     the rate limit window (60)
  --trust-proxy A[,A...]      KAIRAN_TRUST_PROXY           proxy addresses whose X-Forwarded-For is believed
  --login-limit-account N     KAIRAN_LOGIN_LIMIT_ACCOUNT   failed sign-ins per account from one address per 15 minutes (10)
  --login-limit-address N     KAIRAN_LOGIN_LIMIT_ADDRESS   failed sign-ins per address per 15 minutes (50)
  --login-limit-untrusted N   KAIRAN_LOGIN_LIMIT_UNTRUSTED failed sign-ins per account without its device cookie per 15 minutes (30)
  --max-uploads N             KAIRAN_MAX_UPLOADS           multipart uploads received at once (16)
  --import-upload-mb N        KAIRAN_IMPORT_UPLOAD_MB      MB of the export's zip uploaded at /admin/import (50)
  --feed-cache-mb N           KAIRAN_FEED_CACHE_MB         MB of built feeds kept for repeated polls, 0 = off (16)
  --headers-timeout S         KAIRAN_HEADERS_TIMEOUT       time to send the request headers (20)
  --request-timeout S         KAIRAN_REQUEST_TIMEOUT       time to send a whole request, body included (300)
  --keep-alive-timeout S      KAIRAN_KEEP_ALIVE_TIMEOUT    idle keep-alive connection (10)
  --idle-timeout S            KAIRAN_IDLE_TIMEOUT          socket without any traffic (60)
  --shutdown-grace S          KAIRAN_SHUTDOWN_GRACE        after SIGTERM, time for requests in flight (10)
  --streams-per-user N        KAIRAN_STREAMS_PER_USER      live streams open at once per user; more ends the oldest (20)
  --streams-per-address N     KAIRAN_STREAMS_PER_ADDRESS   live streams open at once per client address (100)
  --stream-lifetime S         KAIRAN_STREAM_LIFETIME       a live stream ends after this long; clients resume (21600)

Operations (GET /healthz: the process serves; GET /readyz: the database answers, else 503):
  --metrics                   KAIRAN_METRICS=1             serve GET /metrics in Prometheus text format
                                                           (off by default); scrapes from loopback only,
                              KAIRAN_METRICS_TOKEN         unless this token (16+ characters, environment
                                                           only) is set: then every scrape must send
                                                           Authorization: Bearer TOKEN, from any address`;

/** Options only `kairan serve` has: who may make an account. */
export const ACCOUNT_OPTIONS = {
  "allow-signup": { type: "boolean" },
  "webhook-allow-private": { type: "boolean" },
} as const;

/** Help text for the account options (docs/operations.md "Accounts"). */
export const ACCOUNT_OPTIONS_HELP = `Accounts:
  --allow-signup              KAIRAN_ALLOW_SIGNUP=1        let people make their own accounts: the sign-up
                                                           page, and invitation links for addresses without
                                                           an account (off by default: only the operator's
                                                           kairan user add makes accounts)

Webhooks:
  --webhook-allow-private     KAIRAN_WEBHOOK_ALLOW_PRIVATE=1  let webhooks reach private addresses
                                                           (loopback, private ranges, link-local, cloud
                                                           metadata): refused by default, checked on the
                                                           addresses each connection resolves to`;

/** Help text for the options of sending mail. */
const MAIL_SENDING_OPTIONS_HELP = `Mail:
  --smtp-url URL      KAIRAN_SMTP_URL      smtp://[user:pass@]host:587 or smtps://...: the server that
                                           relays mail (unset: messages go to the outbox folder
                                           DIR/outbox, listed by kairan mail outbox)
  --mail-from ADDR    KAIRAN_MAIL_FROM     sender of every message (default kairan@MAIL-DOMAIN)
  --mail-domain D     KAIRAN_MAIL_DOMAIN   domain of reply addresses reply+TOKEN@D (default: the host
                                           of --public-url)`;

/** Help text for the mail options (docs/operations.md "Mail"). */
export const MAIL_OPTIONS_HELP = `${MAIL_SENDING_OPTIONS_HELP}
  --smtp-inbound-port N
                      KAIRAN_SMTP_INBOUND_PORT  receive replies by mail on this port (off by default;
                                           0 picks one, printed as "smtp inbound on HOST:PORT")`;

/** Help text for the shared options: the server's (`kairan serve --help`). */
export const SERVER_OPTIONS_HELP = `Options (each also read from its environment variable):
  --port N            KAIRAN_PORT          TCP port, 0 picks a free one (default 8080)
  --host H            KAIRAN_HOST          address to listen on (default 127.0.0.1)
  --data DIR          KAIRAN_DATA_DIR      SQLite database and stored files (default ./data)
  --database URL      KAIRAN_DATABASE_URL  postgres://... selects PostgreSQL instead of SQLite;
                                           ?search_path=SCHEMA picks the schema (default public)
  --public-url URL    KAIRAN_PUBLIC_URL    the address clients use (https://kairan.example.com): base
                                           of links in feeds and of OAuth signatures behind a proxy
  --no-demo           KAIRAN_DEMO=0        do not load the demo workspace into an empty database
  --locale ja|en      KAIRAN_LOCALE        language of labels carried as data (default ja)
  --time-zone ZONE    KAIRAN_TIME_ZONE     time zone of pages whose reader chose none (default UTC)
  --log-level LEVEL   KAIRAN_LOG_LEVEL     fatal, error, warn, info (default), debug, trace, silent
  --sqlite-sync MODE  KAIRAN_SQLITE_SYNC   normal (default: survives a killed process) or full
                                           (also survives a power cut; slower writes)
${BLOB_STORE_OPTIONS_HELP}
${MAIL_OPTIONS_HELP}`;

/**
 * Help text for the options of the site a command works on: where its database and stored files
 * are. Every command that opens the store takes them; the server's other options are accepted too
 * (the same environment serves `kairan serve` and the commands) but change nothing, so a command's
 * --help leaves them out.
 */
export const SITE_OPTIONS_HELP = `The site (each option also read from its environment variable):
  --data DIR          KAIRAN_DATA_DIR      SQLite database and stored files (default ./data)
  --database URL      KAIRAN_DATABASE_URL  postgres://... selects PostgreSQL instead of SQLite;
                                           ?search_path=SCHEMA picks the schema (default public)
  --sqlite-sync MODE  KAIRAN_SQLITE_SYNC   normal (default) or full (also survives a power cut)
${BLOB_STORE_OPTIONS_HELP}`;

/** Help text for the commands that mail a link or print one: the link's base. */
export const LINK_OPTIONS_HELP = `Links:
  --public-url URL    KAIRAN_PUBLIC_URL    the address people use (https://kairan.example.com): base
                                           of the links it mails or prints (else http://HOST:PORT of
                                           --host and --port, as kairan serve)`;

/** The last line of a command's --help: where the options it leaves out are. */
const OTHER_OPTIONS_NOTE = "The server's other options (kairan serve --help) are accepted and change nothing here.";

/**
 * The options part of a command's --help: the site, then the link's base for commands that mail
 * or print links (`links`), or that and the mail options for those that send mail themselves (`mail`).
 */
export function commandOptionsHelp(uses?: "links" | "mail"): string {
  const parts = [SITE_OPTIONS_HELP];
  if (uses !== undefined) parts.push(LINK_OPTIONS_HELP);
  if (uses === "mail") parts.push(MAIL_SENDING_OPTIONS_HELP);
  return `${parts.join("\n\n")}\n\n${OTHER_OPTIONS_NOTE}`;
}

/** A command-line mistake: printed with the command's usage, exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
  /** The command whose --help to point at (`user add`), when not the top-level command given. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** Input the command cannot act on (an unknown user, a taken key): one line, exit status 2. */
export class CommandError extends Error {
  override name = "CommandError";
}

/** Parses a command's arguments; unknown options are usage errors. */
export function parseCommand<T extends NonNullable<ParseArgsConfig["options"]>>(args: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's message goes on to explain `--` for positionals that start with "-": the first sentence is the news.
    throw new UsageError((error as Error).message.replace(/^(.*?\.) To specify .*$/s, "$1"));
  }
}

/** The configuration flags out of parsed option values. */
export function configFlags(values: Record<string, string | boolean | undefined>): ConfigFlags {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  return {
    ...blobStoreFlags(values),
    port: text("port"),
    host: text("host"),
    data: text("data"),
    database: text("database"),
    publicUrl: text("public-url"),
    noDemo: values["no-demo"] === true,
    locale: text("locale"),
    timeZone: text("time-zone"),
    logLevel: text("log-level"),
    sqliteSync: text("sqlite-sync"),
    smtpUrl: text("smtp-url"),
    mailFrom: text("mail-from"),
    mailDomain: text("mail-domain"),
    smtpInboundPort: text("smtp-inbound-port"),
    metrics: values.metrics === true,
    allowSignup: values["allow-signup"] === true,
    webhookAllowPrivate: values["webhook-allow-private"] === true,
    limits: {
      noRateLimit: values["no-rate-limit"] === true,
      rateLimitAddress: text("rate-limit-address"),
      rateLimitToken: text("rate-limit-token"),
      rateLimitWindow: text("rate-limit-window"),
      trustProxy: text("trust-proxy"),
      loginLimitAccount: text("login-limit-account"),
      loginLimitAddress: text("login-limit-address"),
      loginLimitUntrusted: text("login-limit-untrusted"),
      maxUploads: text("max-uploads"),
      importUploadMb: text("import-upload-mb"),
      feedCache: text("feed-cache-mb"),
      headersTimeout: text("headers-timeout"),
      requestTimeout: text("request-timeout"),
      keepAliveTimeout: text("keep-alive-timeout"),
      idleTimeout: text("idle-timeout"),
      shutdownGrace: text("shutdown-grace"),
      streamsPerUser: text("streams-per-user"),
      streamsPerAddress: text("streams-per-address"),
      streamLifetime: text("stream-lifetime"),
    },
  };
}

/** The file-storage flags out of parsed option values. */
export function blobStoreFlags(values: Record<string, string | boolean | undefined>): BlobStoreFlags {
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
  return {
    blobStore: text("blob-store"),
    s3Endpoint: text("s3-endpoint"),
    s3Region: text("s3-region"),
    s3ForcePathStyle: values["s3-force-path-style"] === true,
  };
}
