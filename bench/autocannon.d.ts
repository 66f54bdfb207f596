// The part of autocannon 9's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    /** Seconds to wait for an answer before counting a timeout (default 10). */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Requests cycled through; `setupRequest` may rewrite each one before it is sent. */
    requests?: { setupRequest?: (request: { path: string }) => { path: string } }[];
    /** Called with each connection's client before it starts. */
    setupClient?: (client: Client) => void;
  }
  /** One request of a connection's sequence. */
  interface RequestStep {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  /** One connection. */
  interface Client {
    /** Replaces the request this connection repeats by a sequence it loops over. */
    setRequests(requests: RequestStep[]): void;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
    "3xx"?: number;
    statusCodeStats?: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export = autocannon;
}
