// `/download?id=...`: the bytes of an attachment or a shared file for the signed-in person (the
// API's fileDownload needs a token). Images may be shown in place (`inline=true`): previews.
import type { FastifyInstance } from "fastify";
import { contentDisposition } from "../../http-kit/send.js";
import { readDownloadQuery } from "../../http/endpoints/file-download/file-download.request.js";
import { queryFlag } from "../../http-kit/query.js";
import { openDownload } from "../../services/file/download.js";
import { type WebContext, registerPage } from "../page.js";

/** Types a browser shows as an image and never runs as a page. */
const INLINE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** `/download`. */
export function registerDownload(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/download",
    {
      async GET(page) {
        const download = await openDownload(web, page.actor, readDownloadQuery(page.query));
        const inline =
          download.disposition === "inline" ||
          (queryFlag(page.query, "inline") && INLINE_TYPES.has(download.contentType));
        return (
          page.reply
            .code(200)
            .header("content-type", download.contentType)
            .header("content-length", download.size)
            .header("content-disposition", contentDisposition(download.fileName, inline ? "inline" : "attachment"))
            .header("x-content-type-options", "nosniff")
            // Uploaded bytes are someone else's: whatever they are, they run nothing in our origin.
            .header("content-security-policy", "default-src 'none'; sandbox")
            .header("cache-control", "private, no-store")
            .send(download.body)
        );
      },
    },
    { noPage: true },
  );
}
