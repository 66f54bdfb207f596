import type { FastifyRequest } from "fastify";
import type { Authenticate } from "./auth/authenticate.js";
import type { Config } from "./config/config.js";
import type { Actor } from "./domain/access.js";
import type { Admission } from "./http-kit/admission.js";
import type { ServiceContext } from "./services/context.js";

/** One figure of /metrics: its name, labels written `a="1",b="2"`, and value. */
export interface MetricFigure {
  readonly name: string;
  readonly labels: string;
  readonly value: number;
}

/** Reads the figures /metrics serves, without the histograms' buckets (http/metrics.ts). */
export type MetricFigures = () => Promise<readonly MetricFigure[]>;

/**
 * Counts an authenticated request against its token's quota (http/rate-limit.ts), or against the
 * quota of `key` when given (an incoming webhook's address). @throws TooManyRequestsError RATE_LIMITED
 */
export type TokenLimit = (request: FastifyRequest, actor: Actor, key?: string) => Promise<void>;

/**
 * What every handler, of the API and of the web pages, is given: the services' context (store,
 * blobs, clock), configuration, the authenticator and the site URL. Handlers pass it to services
 * as it is, so nothing is built per request.
 */
export interface Context extends ServiceContext {
  readonly config: Config;
  readonly authenticate: Authenticate;
  /** `{base_url}`: the configured public URL, or the listening address once known. */
  readonly baseUrl: () => string;
  /** Counts an authenticated request against its token's rate limit. */
  readonly limitToken: TokenLimit;
  /** Shutdown state and upload slots. */
  readonly admission: Admission;
  /** The client's address (through trusted proxies), for rate limits and sign-in throttling. */
  readonly clientAddress: (request: FastifyRequest) => string;
  /** The figures GET /metrics serves, when metrics are on (the administration's status page). */
  readonly metricFigures?: MetricFigures;
}
