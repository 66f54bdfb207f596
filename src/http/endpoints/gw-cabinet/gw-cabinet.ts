import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { cabinetFeed } from "../../../present/file.js";
import { getFile, listFiles } from "../../../services/file/file.js";
import type { Context } from "../../../context.js";
import { authenticateRequest, viewerOf } from "../../caller.js";
import { sendFeed } from "../../../http-kit/send.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { readCabinetQuery } from "./gw-cabinet.request.js";
import { nextChangesHref } from "../../changes-link.js";

/** `GET /api/gwCabinet/V2`: a group's shared-folder files (read only). */
export function registerGwCabinet(app: FastifyInstance, context: Context): void {
  const { clock } = context;
  registerEndpoint(app, "/api/gwCabinet/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readCabinetQuery(request.query as QueryValues);
      // The ATTACH folder lists comment attachments, which are comment content (docs/api.md "Access levels").
      requireAccess(actor, input.kind === "list" && input.folder.kind === "attach" ? "comments" : "read");
      const view = input.kind === "one" ? await getFile(context, actor, input) : await listFiles(context, actor, input);
      const changes = nextChangesHref(context.baseUrl(), request, view.changes);
      return sendFeed(reply, cabinetFeed(context.baseUrl(), viewerOf(actor), view, clock.now(), changes));
    },
  });
}
