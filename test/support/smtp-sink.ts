// A real SMTP server on 127.0.0.1 (the smtp-server library) that keeps every message it receives,
// parsed with mailparser: the peer the mail tests send to. It can refuse messages (a status code
// for the next N deliveries) to test the sender's retries.
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** One message as the sink received it. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  readonly to: readonly string[];
  /** The envelope's sender (MAIL FROM). */
  readonly from: string;
  /** The message's bytes as sent. */
  readonly raw: string;
  readonly parsed: ParsedMail;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:PORT`, for --smtp-url. */
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedMail[];
  /** The user names and passwords clients signed in with (with `auth`). */
  readonly logins: { readonly user: string; readonly password: string }[];
  /** Connections open now (a pooled client keeps them between messages until it is closed). */
  openConnections(): number;
  /** The next `count` messages are refused with `code` (e.g. 451 to ask for a retry, 550 to refuse). */
  refuseNext(count: number, code: number): void;
  /** Answers each message's data only after `ms` (a slow relay: messages stay in flight that long). */
  setDelay(ms: number): void;
  /** Resolves with the first received message that matches, waiting up to `timeoutMs`. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves once `count` messages have been received (in all), waiting up to `timeoutMs`. */
  waitForCount(count: number, timeoutMs?: number): Promise<readonly ReceivedMail[]>;
  close(): Promise<void>;
}

const later = (ms: number) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : resolve()));

/**
 * Starts a sink on a free port of 127.0.0.1 (no TLS, any credentials accepted); `delayMs`: see
 * setDelay; `auth`: offers AUTH without TLS, requires it, and keeps the credentials in `logins`.
 */
export async function startSmtpSink(
  options: { readonly delayMs?: number; readonly auth?: boolean } = {},
): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const logins: { user: string; password: string }[] = [];
  let open = 0;
  let delayMs = options.delayMs ?? 0;
  const waiters = new Set<() => void>();
  let refusals = { count: 0, code: 451 };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: options.auth !== true,
    allowInsecureAuth: options.auth === true,
    logger: false,
    onConnect(_session, callback) {
      open += 1;
      callback();
    },
    onClose() {
      open -= 1;
    },
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username ?? "", password: auth.password ?? "" });
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => void later(delayMs).then(answer));
      const answer = () => {
        if (refusals.count > 0) {
          refusals = { ...refusals, count: refusals.count - 1 };
          const error = Object.assign(new Error("refused by the test sink"), { responseCode: refusals.code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString("utf8");
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
              from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
              raw,
              parsed,
            });
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      };
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  // A client killed mid-message resets its connection: the sink goes on serving the others.
  server.on("error", () => undefined);

  const waitUntil = <T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = probe();
        if (found === undefined) return false;
        clearTimeout(timer);
        waiters.delete(onMail);
        resolve(found);
        return true;
      };
      const onMail = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(onMail);
        reject(new Error(`SMTP sink: ${what} not received within ${timeoutMs} ms (${received.length} received)`));
      }, timeoutMs);
      if (!check()) waiters.add(onMail);
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    logins,
    openConnections: () => open,
    refuseNext(count, code) {
      refusals = { count, code };
    },
    setDelay(ms) {
      delayMs = ms;
    },
    waitFor: (match, timeoutMs = 10_000) => waitUntil(() => received.find(match), timeoutMs, "a matching message"),
    waitForCount: (count, timeoutMs = 10_000) =>
      waitUntil(() => (received.length >= count ? received.slice() : undefined), timeoutMs, `${count} messages`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
