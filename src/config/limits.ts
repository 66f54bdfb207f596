// The operator-set limits of a server process: rate limits, sign-in throttling, concurrent uploads,
// slow-client timeouts and the shutdown grace period. Validated with the rest of the configuration
// (config.ts); every default is in docs/operations.md "Limits".
import { z } from "zod";

/** Requests allowed per window, counted in this process only (docs/operations.md "Limits": not shared across processes). */
export interface RateLimitConfig {
  /** Per client address (after --trust-proxy), every request. */
  readonly perAddress: number;
  /** Per token (Bearer or OAuth token credentials), authenticated requests. */
  readonly perToken: number;
  readonly windowMs: number;
}

/**
 * Failed sign-ins allowed per window before sign-in is refused; counted in the database. An
 * account's failures count per address, so a stranger's guesses never lock its owner out
 * elsewhere; each address also backs off and has a ceiling across accounts.
 */
export interface LoginThrottleConfig {
  /** Failures on one account from one address. */
  readonly perAccount: number;
  /** Failures from one address on any accounts. */
  readonly perAddress: number;
  /**
   * Failures on one account from every client without the account's device cookie together (a
   * browser that signed in to it before has its own allowance, `perAccount`): guesses spread over
   * many addresses.
   */
  readonly untrustedPerAccount: number;
  readonly windowMs: number;
  /** Failures an address may make in a window before each next attempt waits (back-off). */
  readonly backoffAfter: number;
  /** The first wait; it doubles with every further failure, up to `backoffMaxMs`. */
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
}

/** Timeouts against slow or idle clients, and the time a shutdown waits for requests in flight. */
export interface TimeoutConfig {
  /** From connection (or previous request) to the end of the request headers. */
  readonly headersMs: number;
  /** A whole request, body included (a 50 MB upload must fit). */
  readonly requestMs: number;
  /** An idle keep-alive connection between requests. */
  readonly keepAliveMs: number;
  /** A socket with no traffic at all. */
  readonly idleMs: number;
  /** After SIGTERM: in-flight requests get this long, then are refused or cut. */
  readonly shutdownGraceMs: number;
}

/** Live streams (`GET /api/stream/V2`) open at once in this process, and how long one lives. */
export interface StreamLimitConfig {
  /** Per user: one more ends that user's oldest. */
  readonly perUser: number;
  /** Per client address (after --trust-proxy): one more ends that address's oldest. */
  readonly perAddress: number;
  /** A stream ends after this long; its client reconnects with Last-Event-ID. */
  readonly lifetimeMs: number;
}

/** Every limit of a server process. */
export interface LimitsConfig {
  /** undefined: rate limiting is off (`--no-rate-limit`). */
  readonly rateLimit: RateLimitConfig | undefined;
  /** Addresses of reverse proxies whose X-Forwarded-For names the client. */
  readonly trustProxy: readonly string[];
  readonly loginThrottle: LoginThrottleConfig;
  /** Multipart uploads received at once by this process. */
  readonly maxUploads: number;
  /** The largest zip of the original service's export an administrator may upload (/admin/import), held in memory. */
  readonly importUploadBytes: number;
  /** Bytes of built GET feeds this process keeps to answer repeated polls (0: none). */
  readonly feedCacheBytes: number;
  readonly timeouts: TimeoutConfig;
  readonly streams: StreamLimitConfig;
}

/** Each limit's option and environment variable. */
export const LIMIT_SOURCES = {
  rateLimit: { flag: "--no-rate-limit", env: "KAIRAN_RATE_LIMIT" },
  rateLimitAddress: { flag: "--rate-limit-address", env: "KAIRAN_RATE_LIMIT_ADDRESS" },
  rateLimitToken: { flag: "--rate-limit-token", env: "KAIRAN_RATE_LIMIT_TOKEN" },
  rateLimitWindow: { flag: "--rate-limit-window", env: "KAIRAN_RATE_LIMIT_WINDOW" },
  trustProxy: { flag: "--trust-proxy", env: "KAIRAN_TRUST_PROXY" },
  loginLimitAccount: { flag: "--login-limit-account", env: "KAIRAN_LOGIN_LIMIT_ACCOUNT" },
  loginLimitAddress: { flag: "--login-limit-address", env: "KAIRAN_LOGIN_LIMIT_ADDRESS" },
  loginLimitUntrusted: { flag: "--login-limit-untrusted", env: "KAIRAN_LOGIN_LIMIT_UNTRUSTED" },
  maxUploads: { flag: "--max-uploads", env: "KAIRAN_MAX_UPLOADS" },
  importUploadMb: { flag: "--import-upload-mb", env: "KAIRAN_IMPORT_UPLOAD_MB" },
  feedCache: { flag: "--feed-cache-mb", env: "KAIRAN_FEED_CACHE_MB" },
  headersTimeout: { flag: "--headers-timeout", env: "KAIRAN_HEADERS_TIMEOUT" },
  requestTimeout: { flag: "--request-timeout", env: "KAIRAN_REQUEST_TIMEOUT" },
  keepAliveTimeout: { flag: "--keep-alive-timeout", env: "KAIRAN_KEEP_ALIVE_TIMEOUT" },
  idleTimeout: { flag: "--idle-timeout", env: "KAIRAN_IDLE_TIMEOUT" },
  shutdownGrace: { flag: "--shutdown-grace", env: "KAIRAN_SHUTDOWN_GRACE" },
  streamsPerUser: { flag: "--streams-per-user", env: "KAIRAN_STREAMS_PER_USER" },
  streamsPerAddress: { flag: "--streams-per-address", env: "KAIRAN_STREAMS_PER_ADDRESS" },
  streamLifetime: { flag: "--stream-lifetime", env: "KAIRAN_STREAM_LIFETIME" },
} as const;

/** Command-line values of the limits, as strings (undefined = not given); `noRateLimit` is `--no-rate-limit`. */
export type LimitFlags = { readonly noRateLimit?: boolean | undefined } & {
  readonly [K in Exclude<keyof typeof LIMIT_SOURCES, "rateLimit">]?: string | undefined;
};

const count = (fallback: number) =>
  z.coerce
    .number()
    .int("must be an integer")
    .min(1, "must be 1 or more")
    .max(10_000_000, "is too large")
    .default(fallback);
/** Seconds, fractions allowed (tests use short timeouts), at most a day. */
const seconds = (fallback: number) =>
  z.coerce
    .number()
    .positive("must be more than 0 seconds")
    .max(86_400, "must be at most 86400 seconds")
    .default(fallback);
const ADDRESS = /^[0-9A-Fa-f.:]+$/;

/** The schema fragment config.ts merges into its own. */
export const limitsSchema = {
  rateLimit: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("1"),
  rateLimitAddress: count(3000),
  rateLimitToken: count(1200),
  rateLimitWindow: seconds(60),
  trustProxy: z
    .string()
    .transform((text) =>
      text
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every((address) => ADDRESS.test(address)), "must be a comma-separated list of IP addresses")
    .default([]),
  loginLimitAccount: count(10),
  loginLimitAddress: count(50),
  loginLimitUntrusted: count(30),
  maxUploads: count(16),
  importUploadMb: z.coerce
    .number()
    .int("must be an integer")
    .min(1, "must be 1 or more")
    .max(1024, "must be at most 1024 (MB)")
    .default(50),
  feedCache: z.coerce
    .number()
    .int("must be an integer")
    .min(0, "must be 0 or more")
    .max(4096, "must be at most 4096 (MB)")
    .default(16),
  headersTimeout: seconds(20),
  requestTimeout: seconds(300),
  keepAliveTimeout: seconds(10),
  idleTimeout: seconds(60),
  shutdownGrace: seconds(10),
  streamsPerUser: count(20),
  streamsPerAddress: count(100),
  streamLifetime: seconds(6 * 3600),
};

/** The raw values of the limits: flags over environment. */
export function rawLimits(
  flags: LimitFlags,
  env: NodeJS.ProcessEnv,
): Record<keyof typeof LIMIT_SOURCES, string | undefined> {
  const raw = {} as Record<keyof typeof LIMIT_SOURCES, string | undefined>;
  for (const [key, source] of Object.entries(LIMIT_SOURCES) as [
    keyof typeof LIMIT_SOURCES,
    (typeof LIMIT_SOURCES)[keyof typeof LIMIT_SOURCES],
  ][]) {
    raw[key] =
      key === "rateLimit" ? (flags.noRateLimit === true ? "0" : env[source.env]) : (flags[key] ?? env[source.env]);
  }
  return raw;
}

/** Sign-in failures are counted over this window (docs/operations.md "Limits"). */
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** A person mistyping a password a few times never waits; a guesser waits 1, 2, 4 ... 60 seconds. */
const LOGIN_BACKOFF_AFTER = 5;

type ParsedLimits = { [K in keyof typeof limitsSchema]: z.output<(typeof limitsSchema)[K]> };

/** The validated values as the frozen LimitsConfig. */
export function toLimitsConfig(value: ParsedLimits): LimitsConfig {
  const ms = (s: number) => Math.round(s * 1000);
  const on = value.rateLimit === "1" || value.rateLimit === "true";
  return Object.freeze({
    rateLimit: on
      ? Object.freeze({
          perAddress: value.rateLimitAddress,
          perToken: value.rateLimitToken,
          windowMs: ms(value.rateLimitWindow),
        })
      : undefined,
    trustProxy: Object.freeze([...value.trustProxy]),
    loginThrottle: Object.freeze({
      perAccount: value.loginLimitAccount,
      perAddress: value.loginLimitAddress,
      untrustedPerAccount: value.loginLimitUntrusted,
      windowMs: LOGIN_WINDOW_MS,
      backoffAfter: LOGIN_BACKOFF_AFTER,
      backoffBaseMs: 1000,
      backoffMaxMs: 60 * 1000,
    }),
    maxUploads: value.maxUploads,
    importUploadBytes: value.importUploadMb * 1024 * 1024,
    feedCacheBytes: value.feedCache * 1024 * 1024,
    timeouts: Object.freeze({
      headersMs: ms(value.headersTimeout),
      requestMs: ms(value.requestTimeout),
      keepAliveMs: ms(value.keepAliveTimeout),
      idleMs: ms(value.idleTimeout),
      shutdownGraceMs: ms(value.shutdownGrace),
    }),
    streams: Object.freeze({
      perUser: value.streamsPerUser,
      perAddress: value.streamsPerAddress,
      lifetimeMs: ms(value.streamLifetime),
    }),
  });
}
