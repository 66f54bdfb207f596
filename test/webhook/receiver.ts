// A webhook receiver for tests: a real node:http server that records every request and answers
// with the statuses it is told to (200 once the list is used up).
import { type IncomingHttpHeaders, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A listening receiver. */
export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** Statuses of the next answers, in order; 200 after them (or `otherwise`). */
  answer(statuses: readonly number[], otherwise?: number): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1, port 0. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let queue: number[] = [];
  let fallback = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const status = queue.shift() ?? fallback;
      response.writeHead(status, status >= 300 && status < 400 ? { location: "http://127.0.0.1:1/next" } : {});
      response.end(status >= 400 ? `failure ${status} ${"x".repeat(3_000)}` : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answer(statuses, otherwise = 200) {
      queue = [...statuses];
      fallback = otherwise;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
