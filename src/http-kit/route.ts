// Routes of the API and of the web pages: a 405 with Allow for every method a path lacks, and
// the route table that the fuzzer and the authorization matrix walk.
import type { FastifyInstance, RouteHandlerMethod, RouteOptions } from "fastify";
import { MethodNotAllowedError } from "../domain/errors.js";
import type { QueryValues } from "./query.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** False for a GET whose feed the cache must not keep (http/caching.ts); absent: always kept. */
    readonly feedCacheable?: (query: QueryValues) => boolean;
    /** An operator's probe (health, metrics): outside the request rate limits, logged only when it fails. */
    readonly operational?: true;
  }
}

/** How an endpoint's answers may be reused. */
export interface EndpointOptions {
  /**
   * Whether the feed cache may keep a GET answer of this query (default: always). No for a feed
   * that depends on the clock as well as on the data.
   */
  readonly feedCacheable?: (query: QueryValues) => boolean;
  /**
   * An operator's probe polled every few seconds (health checks, metrics): not counted by the rate
   * limits (a load balancer would lock itself out) and logged only at warn and above.
   */
  readonly operational?: true;
  /** Answers anyone without credentials by design (the health checks); the authorization matrix checks the list. */
  readonly public?: true;
  /**
   * A body limit and an error handler of the endpoint's own, for its every method (the incoming
   * webhooks answer JSON, refusals included, and take smaller bodies than the API).
   */
  readonly own?: Pick<RouteOptions, "bodyLimit" | "errorHandler">;
}

/** The methods an endpoint answers; every other one is a 405 with an `Allow` header. */
export type EndpointHandlers = Partial<Record<"GET" | "POST", RouteHandlerMethod>>;

/** An endpoint as registered: its path and the methods it answers, in registration order. */
export interface Endpoint {
  readonly url: string;
  readonly methods: readonly ("GET" | "POST")[];
  /** Open to anyone by design (EndpointOptions.public). */
  readonly public: boolean;
}

const OTHER_METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS"] as const;

// Keyed by the HTTP server: every encapsulated plugin context of one app shares it, while two
// apps in one process (tests, benchmarks) never see each other's endpoints.
const ENDPOINTS = new WeakMap<object, Endpoint[]>();

/** Registers an endpoint's handlers (an API endpoint or a page), and 405 for the methods it does not have. */
export function registerEndpoint(
  app: FastifyInstance,
  url: string,
  handlers: EndpointHandlers,
  options: EndpointOptions = {},
): void {
  const allowed = Object.keys(handlers) as ("GET" | "POST")[];
  const config = {
    ...(options.feedCacheable === undefined ? {} : { feedCacheable: options.feedCacheable }),
    ...(options.operational ? { operational: true as const } : {}),
  };
  const logLevel = options.operational ? { logLevel: atLeastWarn(app.log.level) } : {};
  const own = options.own ?? {};
  for (const [method, handler] of Object.entries(handlers))
    app.route({ method, url, handler, config, ...logLevel, ...own });
  const refused = [...OTHER_METHODS, ...(["GET", "POST"] as const).filter((method) => !(method in handlers))];
  app.route({
    method: refused,
    url,
    ...own,
    handler: async (request, reply) => {
      reply.header("allow", allowed.join(", "));
      throw new MethodNotAllowedError(
        "METHOD_NOT_ALLOWED",
        `${request.method} is not allowed here; use ${allowed.join(" or ")}.`,
      );
    },
  });
  const list = ENDPOINTS.get(app.server) ?? [];
  list.push(Object.freeze({ url, methods: Object.freeze(allowed), public: options.public === true }));
  ENDPOINTS.set(app.server, list);
}

const QUIETER_THAN_WARN = new Set(["error", "fatal", "silent"]);

/** The route's log level for an operator's probe: warn, unless the server logs less than that anyway. */
function atLeastWarn(level: string): "warn" | "error" | "fatal" | "silent" {
  return QUIETER_THAN_WARN.has(level) ? (level as "error" | "fatal" | "silent") : "warn";
}

/**
 * Every endpoint registered with {@link registerEndpoint} on this app (read only; complete once
 * the app is ready): the route table that the fuzzing and authorization suites walk.
 */
export function registeredEndpoints(app: FastifyInstance): readonly Endpoint[] {
  return Object.freeze([...(ENDPOINTS.get(app.server) ?? [])]);
}
