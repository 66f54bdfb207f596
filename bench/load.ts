import autocannon from "autocannon";

/** One measured load run. */
export interface Measured {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  /** Responses with another status than expected, plus errors and timeouts. */
  readonly failures: number;
}

let sequence = 0;

/** Fires `request` at the server from 32 connections for `seconds`. */
export async function measure(
  baseUrl: string,
  request: { method: string; path: string; headers?: Readonly<Record<string, string>>; body?: string; expect: number; uniqueQuery?: boolean },
  seconds: number,
): Promise<Measured> {
  const result = await autocannon({
    url: baseUrl + request.path,
    connections: 32,
    duration: seconds,
    method: request.method,
    headers: { ...request.headers },
    ...(request.body === undefined ? {} : { body: request.body }),
    // A parameter the endpoint ignores, new for every request: no two requests share a cache entry.
    ...(request.uniqueQuery === true ? { requests: [{ setupRequest: (sent: { path: string }) => ({ ...sent, path: `${request.path}&n=${++sequence}` }) }] } : {}),
  });
  const expected = result.statusCodeStats?.[String(request.expect)]?.count ?? 0;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.requests.total - expected + result.errors + result.timeouts,
  };
}
