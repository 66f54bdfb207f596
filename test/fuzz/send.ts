// Sends one fuzz request exactly as generated: raw path and query bytes, any header values node
// lets through, the body as bytes with or without Content-Length.
import { request as httpRequest } from "node:http";

/** A request as the fuzzer builds it. */
export interface FuzzRequest {
  readonly method: string;
  /** Path and raw query, already encoded (or deliberately mis-encoded). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer;
  /** Leaves Content-Length out: the body goes chunked. */
  readonly chunked?: boolean;
}

/** What came back. */
export interface FuzzAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

// Not a speed limit: a request the server never answers must fail the run with its input
// instead of hanging the whole suite.
const NO_ANSWER_MS = 60_000;

/** Sends `fuzz` to the server at `base` and reads the whole answer. */
export function send(base: string, fuzz: FuzzRequest): Promise<FuzzAnswer> {
  const { hostname, port } = new URL(base);
  const headers: Record<string, string | number> = { ...fuzz.headers };
  // node frames a body as chunked by itself only for POST, PUT and PATCH; for GET and the others
  // an unframed body would reach the server as a second, garbage request.
  if (fuzz.body !== undefined) {
    if (fuzz.chunked) headers["transfer-encoding"] = "chunked";
    else headers["content-length"] = fuzz.body.length;
  }
  return new Promise<FuzzAnswer>((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { hostname, port, method: fuzz.method, path: fuzz.target, headers, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        // A live stream never ends: its first chunk is its answer.
        const streaming = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
        res.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          if (!streaming) return;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          req.destroy();
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(NO_ANSWER_MS, () => req.destroy(new Error(`no answer within ${NO_ANSWER_MS} ms`)));
    // The server may answer (413, 400) before it has read the whole body and close: not a failure.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
    });
    req.on("close", () => {
      if (!answered) reject(new Error("the server closed the connection without an answer"));
    });
    req.end(fuzz.body);
  });
}
