// Request rate limits per client address (every request) and per token (authenticated requests),
// counted by @fastify/rate-limit in this process's memory: several processes behind a proxy each
// allow the full quota (docs/operations.md "Limits"). Refusals are TooManyRequestsError, answered by the one error table.
// Headers follow draft-ietf-httpapi-ratelimit-headers: RateLimit-Policy names the quotas, RateLimit
// says what is left of them.
import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { RateLimitConfig } from "../config/limits.js";
import { TooManyRequestsError } from "../domain/errors.js";
import { requestSlot } from "../http-kit/request-data.js";
import type { TokenLimit } from "../context.js";
import { isWebSubRender } from "./websub-render.js";

const POLICIES = ["address", "token"] as const;
type Policy = (typeof POLICIES)[number];
type Limiter = ReturnType<FastifyInstance["createRateLimit"]>;

/** Where one quota stands for one request. */
interface Standing {
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** The quotas counted for a request so far, for its response headers. */
const STANDINGS = requestSlot<Partial<Record<Policy, Standing>>>("rateLimitStandings");
/** The key the token's quota is counted under, once the caller is known. */
const TOKEN_KEY = requestSlot<string>("rateLimitTokenKey");

/**
 * Registers the address limit (an onRequest hook, before any work) and the response headers, and
 * returns the token limit for the authenticator to call. With `config` undefined nothing is counted.
 */
export function registerRateLimits(
  app: FastifyInstance,
  config: RateLimitConfig | undefined,
  addressOf: (request: FastifyRequest) => string,
): TokenLimit {
  if (config === undefined) return async () => undefined;
  // global: false: no hook of the plugin's own; we call its limiters, and answer refusals ourselves.
  app.register(fastifyRateLimit, { global: false });
  const quota: Readonly<Record<Policy, number>> = { address: config.perAddress, token: config.perToken };
  const windowSeconds = Math.ceil(config.windowMs / 1000);
  const policyHeader = POLICIES.map((policy) => `"${policy}";q=${quota[policy]};w=${windowSeconds}`).join(", ");
  const limiters: Partial<Record<Policy, Limiter>> = {};
  // Created at the first request: the plugin's decorator exists only once the server has booted.
  const limiter = (policy: Policy): Limiter =>
    (limiters[policy] ??= app.createRateLimit({
      max: quota[policy],
      timeWindow: config.windowMs,
      keyGenerator:
        policy === "address"
          ? (request) => `address ${addressOf(request)}`
          : (request) => TOKEN_KEY.get(request) ?? "token ?",
    }));

  const count = async (request: FastifyRequest, policy: Policy): Promise<void> => {
    const result = await limiter(policy)(request);
    if (result.isAllowed) return;
    const standing = { remaining: result.remaining, resetSeconds: Math.max(1, result.ttlInSeconds) };
    STANDINGS.set(request, { ...STANDINGS.get(request), [policy]: standing });
    if (result.isExceeded) {
      throw new TooManyRequestsError(
        "RATE_LIMITED",
        `Too many requests from this ${policy === "address" ? "address" : "token"}: at most ${quota[policy]} per ${windowSeconds} seconds. Try again in ${standing.resetSeconds} seconds.`,
        standing.resetSeconds,
      );
    }
  };

  app.addHook("onRequest", async (request) => {
    // Health checks and scrapes come every few seconds from one address: never refused for it.
    // Nor the WebSub hub's own renders of its subscribers' feeds (http/websub-render.ts).
    if (request.routeOptions.config.operational !== true && !isWebSubRender(request)) await count(request, "address");
  });
  app.addHook("onSend", async (request, reply) => {
    const standing = STANDINGS.get(request);
    if (standing !== undefined)
      reply.header("ratelimit-policy", policyHeader).header("ratelimit", rateLimitField(standing));
  });
  return async (request, actor, key) => {
    // An incoming webhook's address is its credential: it names its own key (http/endpoints/hooks).
    const name = key ?? (actor.tokenId === undefined ? undefined : `token ${actor.tokenId}`);
    if (name === undefined) return;
    TOKEN_KEY.set(request, name);
    await count(request, "token");
  };
}

/** The RateLimit field: what is left of each quota counted for this request (r), and when it resets (t). */
function rateLimitField(standing: Partial<Record<Policy, Standing>>): string {
  return POLICIES.flatMap((policy) => {
    const one = standing[policy];
    return one === undefined ? [] : [`"${policy}";r=${one.remaining};t=${one.resetSeconds}`];
  }).join(", ");
}
