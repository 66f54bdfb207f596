import type { FastifyInstance } from "fastify";
import type { Context } from "../../../context.js";
import { UnsupportedMediaTypeError } from "../../../domain/errors.js";
import { mediaType } from "../../../http-kit/form.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import type { RenderFeed } from "../../../services/websub/context.js";
import { requestSubscription } from "../../../services/websub/subscribe.js";
import { authenticateRequest } from "../../caller.js";

/**
 * `POST /websub` (docs/api.md "WebSub"): the hub. A subscriber, authenticated like any API caller,
 * asks to subscribe a callback to a feed of this site or to unsubscribe it; the answer is 202 and
 * the verification of intent follows, sent by the hub after commit. Refusals are the API's error
 * document.
 */
export function registerWebSub(app: FastifyInstance, context: Context, render: RenderFeed): void {
  const hubContext = { ...context, render };
  registerEndpoint(app, "/websub", {
    async POST(request, reply) {
      const actor = await authenticateRequest(context, request);
      if (mediaType(request) !== "application/x-www-form-urlencoded")
        throw new UnsupportedMediaTypeError(
          "UNSUPPORTED_MEDIA_TYPE",
          "Send the hub's request as application/x-www-form-urlencoded.",
        );
      const body = typeof request.body === "string" ? request.body : "";
      await requestSubscription(hubContext, actor, new URLSearchParams(body));
      return reply.code(202).header("cache-control", "no-store").send();
    },
  });
}
