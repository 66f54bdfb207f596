// How the WebSub hub renders a feed as its subscriber sees it: through the site's own request
// path (app.inject), with the subscriber's identity adopted by a hook, so the handlers,
// authorization, privacy rules and feed cache are those of the subscriber's own request. The
// identity travels under a random one-time key held in this process only: a header sent from the
// network can never name an identity.
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Actor } from "../domain/access.js";
import type { RenderFeed } from "../services/websub/context.js";
import { requestSlot } from "../http-kit/request-data.js";
import { adoptInternalCaller } from "./caller.js";

const HEADER = "x-kairan-websub-render";
/** The request is the hub's own render (on the request). */
const INTERNAL = requestSlot<true>("websubRender");

/** True for the hub's own render of a feed: the address's rate limit does not count it. */
export function isWebSubRender(request: FastifyRequest): boolean {
  return INTERNAL.get(request) === true;
}

/**
 * Registers the hook that adopts a render's identity (before the rate limits: the hub's renders
 * are not the loopback address's requests); returns the render function.
 */
export function registerWebSubRender(app: FastifyInstance, baseUrl: () => string): RenderFeed {
  const pending = new Map<string, Actor>();
  app.addHook("onRequest", (request, _reply, done) => {
    const key = request.headers[HEADER];
    if (typeof key === "string") {
      const actor = pending.get(key);
      pending.delete(key);
      if (actor !== undefined) {
        INTERNAL.set(request, true);
        adoptInternalCaller(request, actor);
      }
    }
    done();
  });
  return async (target, actor) => {
    const key = randomBytes(32).toString("base64url");
    pending.set(key, actor);
    try {
      const response = await app.inject({
        method: "GET",
        url: target,
        headers: { [HEADER]: key, host: new URL(baseUrl()).host, "x-no-compression": "1" },
      });
      const type = response.headers["content-type"];
      return { status: response.statusCode, contentType: typeof type === "string" ? type : "", body: response.body };
    } finally {
      pending.delete(key);
    }
  };
}
