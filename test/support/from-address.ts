// Requests from a chosen client address: Linux routes all of 127.0.0.0/8 to a server on 127.0.0.1,
// so a test can be many clients (127.0.0.2, .3, ...) over real connections.
import { type IncomingHttpHeaders, request as httpRequest } from "node:http";

/** What came back: status, headers and the body as text. */
export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One HTTP request whose connection starts from `localAddress`. */
export function sendFrom(
  url: string,
  localAddress: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? "GET", headers: options.headers, localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}
