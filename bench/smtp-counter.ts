// The bench's SMTP relay: a real SMTP server (smtp-server) on 127.0.0.1 that only notes each
// message's Message-ID and arrival time, as a relay that queues mail does little more. The tests'
// sink parses every message with mailparser, which would put the bench process's CPU on the scale.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpCounter {
  readonly url: string;
  /** Arrival time (performance.now()) by Message-ID; a duplicate keeps the first. */
  readonly arrivals: Map<string, number>;
  /** Messages received, duplicates included. */
  readonly received: () => number;
  /** Resolves once `count` distinct messages have arrived. */
  waitForDistinct(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpCounter(): Promise<SmtpCounter> {
  const arrivals = new Map<string, number>();
  let received = 0;
  let wake: (() => void) | undefined;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString("latin1");
      });
      stream.on("end", () => {
        received += 1;
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? `unknown-${received}`;
        if (!arrivals.has(id)) arrivals.set(id, performance.now());
        wake?.();
        callback();
      });
    },
  });
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    arrivals,
    received: () => received,
    waitForDistinct: (count, timeoutMs) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          wake = undefined;
          reject(new Error(`only ${arrivals.size} of ${count} messages arrived within ${timeoutMs} ms`));
        }, timeoutMs);
        wake = () => {
          if (arrivals.size < count) return;
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
        wake();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
