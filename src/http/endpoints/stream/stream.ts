import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Actor, levelAllows, requireAccess } from "../../../domain/access.js";
import { AuthenticationError } from "../../../domain/errors.js";
import { LIVE_PING, liveEndText, liveEventText } from "../../../present/live-event.js";
import type { LiveHub, LiveStream, StreamEndReason } from "../../../services/live/live-hub.js";
import type { StreamCredential } from "../../../services/live/live-streams.js";
import type { Context } from "../../../context.js";
import { adoptCaller, authenticateRequest } from "../../caller.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readLastEventId } from "./stream.request.js";

/** The browser's session, when the request carries its cookie (the web side reads it). */
export type SessionActor = (request: FastifyRequest) => Promise<SessionCaller | undefined>;

/** The person of a web session, and the session's id (signing out ends its streams). */
export interface SessionCaller {
  readonly actor: Actor;
  readonly sessionId: number;
}

/** Who opened a stream, and with which credential. */
interface StreamCaller {
  readonly actor: Actor;
  readonly credential: StreamCredential;
}

/**
 * A stream whose client reads slower than events come is ended past this many unsent bytes: the
 * client reconnects with Last-Event-ID and resumes from the log, instead of the server buffering.
 */
const MAX_UNSENT_BYTES = 1024 * 1024;

/**
 * `GET /api/stream/V2`: Server-Sent Events of the caller's notifications, like notifications and
 * chat messages (docs/api.md "Live updates"). Any API credential or the web session; `read` level.
 */
export function registerStream(app: FastifyInstance, context: Context, hub: LiveHub, session: SessionActor): void {
  registerEndpoint(app, "/api/stream/V2", {
    async GET(request, reply) {
      const caller = await streamCaller(context, request, session);
      const lastEventId = readLastEventId(request);
      requireAccess(caller.actor, "read");
      openStream(context, hub, caller, request, reply, lastEventId);
      return reply;
    },
  });
  // Open streams would hold the shutdown's drain forever: they end at once, and clients reconnect.
  app.addHook("preClose", async () => hub.endAll());
}

/**
 * API credentials when the request carries any, else the web session's cookie.
 * @throws AuthenticationError (and as authenticateRequest)
 */
async function streamCaller(context: Context, request: FastifyRequest, session: SessionActor): Promise<StreamCaller> {
  const signed = request.headers.authorization !== undefined || (request.raw.url ?? "").includes("oauth_");
  if (!signed && request.headers.cookie !== undefined) {
    const signedIn = await session(request);
    if (signedIn !== undefined) {
      await adoptCaller(context, request, signedIn.actor);
      return { actor: signedIn.actor, credential: { kind: "session", id: signedIn.sessionId } };
    }
  }
  const actor = await authenticateRequest(context, request);
  // Every API credential is a token; a stream must know which one to end with it.
  if (actor.tokenId === undefined)
    throw new AuthenticationError("TOKEN_REJECTED", "This credential cannot open a stream.");
  return { actor, credential: { kind: "token", id: actor.tokenId } };
}

let serials = 0;

function openStream(
  context: Context,
  hub: LiveHub,
  { actor, credential }: StreamCaller,
  request: FastifyRequest,
  reply: FastifyReply,
  lastEventId: number | undefined,
): void {
  reply.hijack();
  const response = reply.raw;
  // The socket's idle timeout would cut a quiet stream between two pings.
  request.raw.socket.setTimeout(0);
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    // nginx buffers answers unless told not to (docs/operations.md "Live updates behind a proxy").
    "x-accel-buffering": "no",
    "x-request-id": request.id,
  });
  // HEAD (which fastify routes here with GET) learns the stream's head and nothing more: holding
  // it open would leave its client waiting for an end that never comes.
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  let closed = false;
  let remove: (() => void) | undefined;
  const finish = (reason?: StreamEndReason) => {
    if (closed) return;
    closed = true;
    remove?.();
    response.end(reason === undefined ? undefined : liveEndText(reason));
  };
  const write = (text: string) => {
    if (closed) return;
    response.write(text);
    if (response.writableLength > MAX_UNSENT_BYTES) finish();
  };
  const locale = context.config.locale;
  const stream: LiveStream = {
    userId: actor.user.id,
    credential,
    address: context.clientAddress(request),
    openedAt: context.clock.now(),
    serial: ++serials,
    readsComments: levelAllows(actor.app.accessLevel, "comments"),
    deliver: (delivery) => write(liveEventText(context.baseUrl(), delivery, locale)),
    ping: () => write(LIVE_PING),
    end: finish,
  };
  write(": connected\nretry: 3000\n\n");
  request.raw.once("close", () => finish());
  hub.open(stream, lastEventId).then(
    (removal) => {
      if (closed) removal();
      else remove = removal;
    },
    (error: unknown) => {
      request.log.error({ err: error }, "the live stream could not start");
      finish();
    },
  );
}
