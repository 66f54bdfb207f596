import { request as httpRequest, type IncomingMessage, type ClientRequest } from "node:http";
import { type RequestOptions, request as httpsRequest } from "node:https";

/** One Server-Sent Event as a client reads it. */
export interface SseEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
}

/** An open event stream over real HTTP: what arrived, and waiting for more. */
export interface SseClient {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly events: SseEvent[];
  /** Comment lines received (pings). */
  readonly comments: string[];
  /** Waits until `count` events satisfy `match` (default: any); fails after `timeoutMs`. */
  waitFor(match: (event: SseEvent) => boolean, count?: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * Opens `url` as an event stream with these headers; resolves once the answer's head arrived.
 * An https URL is opened with `connection`'s TLS settings (`ca`); `localAddress` picks the client's address.
 */
export function openSse(
  url: string,
  headers: Record<string, string> = {},
  connection: Pick<RequestOptions, "ca" | "localAddress"> = {},
): Promise<SseClient> {
  const send = url.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const options = { ...connection, headers: { accept: "text/event-stream", ...headers } };
    const req: ClientRequest = send(url, options, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = parseBlock(block, comments);
          if (parsed) events.push(parsed);
        }
        for (const waiter of [...waiters]) waiter();
      });
      const ended = new Promise<void>((done) => res.on("close", () => done()));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        ended,
        close: () => req.destroy(),
        waitFor(match, count = 1, timeoutMs = 5000) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = events.filter(match);
              if (found.length < count) return false;
              waiters.delete(check);
              clearTimeout(timer);
              ok(found);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`waited ${timeoutMs} ms for ${count} events; got ${JSON.stringify(events)}`));
            }, timeoutMs);
            if (!check()) waiters.add(check);
          });
        },
      });
    });
    req.on("error", reject);
    req.end();
  });
}

function parseBlock(block: string, comments: string[]): SseEvent | undefined {
  let event = "message";
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) comments.push(line.slice(1).trim());
    else if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("id: ")) id = line.slice(4);
    else if (line.startsWith("data: ")) data.push(line.slice(6));
  }
  return data.length === 0 ? undefined : { event, id, data: data.join("\n") };
}
