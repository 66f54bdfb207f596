import autocannon from "autocannon";
import type { Request } from "./scenarios.js";

/** One measured load run. */
export interface Measured {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses with another status than expected, plus errors and timeouts (no answer within 60 s). */
  readonly failures: number;
}

let sequence = 0;

/**
 * Fires `request` at the server from 32 connections (or `connections`) for `seconds`; with `cycles`, connection k
 * loops over `cycles[k % cycles.length]` instead; with `uniqueQuery`, every request's URL is new.
 */
export async function measure(
  baseUrl: string,
  request: Request & {
    readonly expect: number;
    readonly cycles?: readonly (readonly Request[])[];
    readonly uniqueQuery?: boolean;
    /** The path of the n-th request (from 1), instead of `path`: a new window each time, say. */
    readonly pathOf?: (n: number) => string;
  },
  seconds: number,
  connections = 32,
): Promise<Measured> {
  const { cycles } = request;
  let connection = 0;
  const result = await autocannon({
    url: baseUrl + request.path,
    connections,
    duration: seconds,
    // Not the default 10 s: 32 queued writes that each notify 5,000 members can take longer, and a
    // slow answer is a latency to report, not a failure.
    timeout: 60,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(cycles === undefined || cycles.length === 0
      ? {}
      : {
          setupClient: (client) =>
            client.setRequests(
              cycles[connection++ % cycles.length]!.map((step) => ({ ...step, headers: { ...step.headers } })),
            ),
        }),
    // A parameter the endpoint ignores, new for every request: no two requests share a cache entry.
    ...(request.uniqueQuery === true || request.pathOf !== undefined
      ? {
          requests: [
            {
              setupRequest: (sent: { path: string }) => ({
                ...sent,
                path: request.pathOf?.(++sequence) ?? `${request.path}&n=${++sequence}`,
              }),
            },
          ],
        }
      : {}),
  });
  const expected = result.statusCodeStats?.[String(request.expect)]?.count ?? 0;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.requests.total - expected + result.errors + result.timeouts,
  };
}
