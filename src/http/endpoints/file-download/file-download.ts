import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { openDownload } from "../../../services/file/download.js";
import type { Context } from "../../../context.js";
import { authenticateRequest } from "../../caller.js";
import type { QueryValues } from "../../../http-kit/query.js";
import { registerEndpoint } from "../../../http-kit/route.js";
import { contentDisposition } from "../../../http-kit/send.js";
import { readDownloadQuery } from "./file-download.request.js";

/**
 * `GET /api/fileDownload/V2?id=[&version=N][&thumbnail=true]`: the bytes of a comment attachment
 * or of a shared-folder file (a version of it, or its thumbnail), streamed; members only.
 */
export function registerFileDownload(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/fileDownload/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readDownloadQuery(request.query as QueryValues);
      // A comment's (or chat message's) attachment is comment content (docs/api.md "Access levels"); other files need only `read`.
      requireAccess(
        actor,
        input.ref.kind === "ATTACHMENT" || input.ref.kind === "CHAT_ATTACHMENT" ? "comments" : "read",
      );
      const download = await openDownload(context, actor, input);
      return reply
        .code(200)
        .header("content-type", download.contentType)
        .header("content-length", download.size)
        .header("content-disposition", contentDisposition(download.fileName, download.disposition))
        .header("x-content-type-options", "nosniff")
        .send(download.body);
    },
  });
}
