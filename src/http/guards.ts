// What the HTTP server refuses before any endpoint runs, and how it stops: header and URL sizes,
// slow-client timeouts, requests during shutdown, and the shutdown's grace period.
import type { FastifyHttpOptions, FastifyInstance } from "fastify";
import type { Server } from "node:http";
import type { TimeoutConfig } from "../config/limits.js";
import { UriTooLongError } from "../domain/errors.js";
import { LIMITS } from "../domain/limits.js";
import type { Admission } from "../http-kit/admission.js";
import { clientErrorHandler } from "./errors.js";

/** After uploads are aborted, their 503 answers get this long to leave before every connection is cut. */
const CUT_AFTER_ABORT_MS = 1000;

/** The fastify and node:http server options that carry the limits. */
export function serverOptions(timeouts: TimeoutConfig): FastifyHttpOptions<Server> {
  return {
    // Requests arriving during shutdown get our own 503 <error> document (registerGuards).
    return503OnClosing: false,
    forceCloseConnections: "idle",
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleMs,
    clientErrorHandler,
    http: {
      maxHeaderSize: LIMITS.headerMaxBytes,
      headersTimeout: timeouts.headersMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeouts.headersMs / 2))),
    },
  };
}

/**
 * Refuses requests once shutdown has begun (503) and request targets over LIMITS.urlMaxBytes
 * (414), and gives a shutdown its grace period: requests in flight may finish for `graceMs` (their
 * answers say Connection: close); then uploads still being received are answered 503, and a
 * moment later every connection is closed.
 */
export function registerGuards(app: FastifyInstance, admission: Admission, graceMs: number): void {
  // Callback hooks: they run for every request, and an async hook costs a promise each time.
  app.addHook("onRequest", (request, _reply, done) => {
    try {
      admission.checkOpen();
      const target = request.raw.url ?? "";
      if (target.length > LIMITS.urlMaxBytes) {
        throw new UriTooLongError("URI_TOO_LONG", `The request URL is longer than ${LIMITS.urlMaxBytes} bytes.`);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
  // Requests that finish during the drain close their connection: none lingers as keep-alive.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (admission.closing) reply.header("connection", "close");
    done(null, payload);
  });
  let timers: NodeJS.Timeout[] = [];
  app.addHook("preClose", async () => {
    admission.close();
    const cut = () => app.server.closeAllConnections();
    const abort = () => {
      admission.abortUploads();
      timers.push(setTimeout(cut, CUT_AFTER_ABORT_MS).unref());
    };
    timers.push(setTimeout(abort, graceMs).unref());
  });
  // The server's own 'close' comes once every connection has ended: nothing left to cut.
  app.server.once("close", () => {
    for (const timer of timers) clearTimeout(timer);
    timers = [];
  });
}
