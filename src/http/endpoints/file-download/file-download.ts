import type { FastifyInstance } from "fastify";
import { requireAccess } from "../../../domain/access.js";
import { NotFoundError } from "../../../domain/errors.js";
import { downloadFile } from "../../../services/file.js";
import { type Context, authenticateRequest } from "../../context.js";
import { sendDownload } from "../../download.js";
import type { QueryValues } from "../../query.js";
import { registerEndpoint } from "../../route.js";
import { readDownloadQuery } from "./file-download.request.js";

/** `GET /api/fileDownload/V2?id=`: the bytes of a file (beyond the spec, decisions.md §7); members only. */
export function registerFileDownload(app: FastifyInstance, context: Context): void {
  const { store, blobs } = context;
  registerEndpoint(app, "/api/fileDownload/V2", {
    async GET(request, reply) {
      const actor = await authenticateRequest(context, request);
      const input = readDownloadQuery(request.query as QueryValues);
      requireAccess(actor, "read");
      // The one dispatch on the kind of item whose bytes are asked for.
      switch (input.ref.kind) {
        case "CABINET": {
          const download = await downloadFile(store, blobs, actor, { ...input, ref: input.ref });
          return sendDownload(reply, download, input.thumbnail ? "inline" : "attachment");
        }
        default:
          throw new NotFoundError("ITEM_NOT_FOUND", "There is nothing to download under this id.");
      }
    },
  });
}
