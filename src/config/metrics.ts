import { z } from "zod";

/**
 * `GET /metrics` in Prometheus text format. Off unless enabled. When on, a scrape needs the
 * bearer token when one is configured (from any address: Prometheus's `authorization` setting),
 * and otherwise comes from a loopback address only (a Prometheus on the same host, or an agent
 * that forwards). The client address is the one rate limits use, through trusted proxies only.
 */
export interface MetricsConfig {
  readonly enabled: boolean;
  readonly token: string | undefined;
}

/** Command-line values for metrics (the token is read from the environment only). */
export interface MetricsFlags {
  readonly metrics?: boolean | undefined;
}

/** Each field with its option (if any) and environment variable, for messages and --help. */
export const METRICS_SOURCES = {
  metrics: { flag: "--metrics", env: "KAIRAN_METRICS" },
  // A secret: never on the command line, which every user of the machine can read.
  metricsToken: { flag: undefined, env: "KAIRAN_METRICS_TOKEN" },
} as const;

/** Shortest accepted token: a guessable one would open the metrics to anyone. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

/** The zod fields of the metrics options. */
export const metricsFields = {
  metrics: z.enum(["0", "1", "true", "false"], { message: "must be 0 or 1" }).default("0"),
  metricsToken: z
    .string()
    .min(METRICS_TOKEN_MIN_LENGTH, `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`)
    .max(256, "must be at most 256 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional(),
};

/** Raw metrics values: the flag over KAIRAN_METRICS; the token from the environment only. */
export function rawMetrics(flags: MetricsFlags, env: NodeJS.ProcessEnv) {
  return { metrics: flags.metrics ? "1" : env.KAIRAN_METRICS, metricsToken: env.KAIRAN_METRICS_TOKEN };
}

/** A token while metrics are off is most likely a forgotten --metrics: said rather than ignored. */
export function metricsCrossProblems(raw: ReturnType<typeof rawMetrics>): string[] {
  const on = raw.metrics === "1" || raw.metrics === "true";
  return raw.metricsToken !== undefined && !on
    ? ["KAIRAN_METRICS_TOKEN: only applies with --metrics / KAIRAN_METRICS=1"]
    : [];
}

/** The validated values as a MetricsConfig. */
export function toMetricsConfig(value: z.infer<z.ZodObject<typeof metricsFields>>): MetricsConfig {
  return Object.freeze({ enabled: value.metrics === "1" || value.metrics === "true", token: value.metricsToken });
}
