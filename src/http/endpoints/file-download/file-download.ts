import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { openDownload } from "../../../services/download.js";
import { type Context, authenticateRequest } from "../../context.js";
import type { QueryValues } from "../../query.js";
import { registerEndpoint } from "../../route.js";
import { contentDisposition, readDownloadQuery } from "./file-download.request.js";

/**
 * `GET /api/fileDownload/V2?id=[&version=N][&thumbnail=true]`: the bytes of a comment attachment
 * or of a shared-folder file (a version of it, or its thumbnail), streamed; members only.
 */
export function registerFileDownload(app: FastifyInstance, context: Context): void {
  registerEndpoint(app, "/api/fileDownload/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readDownloadQuery(request.query as QueryValues);
      // A comment's attachment is comment content (decisions.md §3); other files need only `read`.
      requireAccess(actor, input.ref.kind === "ATTACHMENT" ? "comments" : "read");
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
