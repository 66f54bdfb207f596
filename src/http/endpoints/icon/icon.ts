import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { iconOf } from "../../../services/account/icon.js";
import type { Context } from "../../../context.js";
import { authenticateRequest } from "../../caller.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readIconQuery } from "./icon.request.js";

/**
 * `GET /api/icon/V2`: a person's or a group's picture (docs/api.md "Icons"), with an ETag that
 * changes with it; a matching If-None-Match is answered 304. `read` level.
 */
export function registerIcon(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/icon/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const subject = readIconQuery(request.query as QueryValues);
      requireAccess(actor, "read");
      const icon = await iconOf(context, actor, subject);
      reply
        .header("etag", icon.etag)
        .header("cache-control", "private, max-age=3600")
        .header("x-content-type-options", "nosniff");
      if (request.headers["if-none-match"] === icon.etag) return reply.code(304).send();
      return reply.code(200).header("content-type", icon.mediaType).send(Buffer.from(icon.bytes));
    },
  });
}
