// A refused body (too large, a full disk, a bad part of an upload) is read to its end and thrown
// away before the answer is sent and the connection closed. A client that writes its whole body
// before it reads (node-oauth, most simple clients) would otherwise be cut off mid-write: the
// server's close turns the rest of the body into a TCP reset, and the reset throws away the answer
// waiting, unread, in the client's socket (EPIPE or ECONNRESET instead of the error document). The reading is bounded in bytes
// and in time: a body beyond either is cut off as before.
import type { IncomingMessage } from "node:http";

/** At most this much of a refused body is read and discarded before the answer. */
export const REFUSED_BODY_DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** And for at most this long: a slow or endless body is then cut off. */
export const REFUSED_BODY_DRAIN_MAX_MS = 10_000;

/** Whether part of the request's body has not been received yet. */
export function bodyStillArriving(raw: IncomingMessage): boolean {
  return !raw.complete && !raw.destroyed && !raw.readableEnded;
}

/**
 * Whether a refusal with `status` reads the rest of the body before its answer: every refusal but
 * those that shed load (429, 503), whose point is to stop receiving.
 */
export function drainsBeforeAnswer(status: number, raw: IncomingMessage): boolean {
  return status !== 429 && status !== 503 && bodyStillArriving(raw);
}

/**
 * Reads and discards the rest of a request's body; resolves when it has ended, when the client
 * went away, or when either bound is reached.
 */
export function drainRefusedBody(raw: IncomingMessage): Promise<void> {
  if (!bodyStillArriving(raw)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off("data", onData);
      raw.off("end", finish);
      raw.off("close", finish);
      raw.off("error", finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > REFUSED_BODY_DRAIN_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, REFUSED_BODY_DRAIN_MAX_MS);
    raw.on("data", onData);
    raw.once("end", finish);
    raw.once("close", finish);
    raw.once("error", finish);
    // A parser may have unpiped and paused it when it refused the body, or still be piped and hold
    // it paused (a multipart parser whose file part nobody reads any more): nothing else reads it now.
    raw.unpipe();
    raw.resume();
  });
}
