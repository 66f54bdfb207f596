import type { FastifyReply } from "fastify";
import type { Download } from "../services/file.js";

/** `filename="..."` for old clients (ASCII only) and RFC 5987 `filename*` in UTF-8 for everyone else. */
export function contentDisposition(kind: "attachment" | "inline", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Sends bytes: 200, exact length, and never sniffed into something a browser would run. */
export function sendDownload(reply: FastifyReply, download: Download, kind: "attachment" | "inline"): FastifyReply {
  return reply
    .code(200)
    .header("content-type", download.mimeType)
    .header("content-length", String(download.size))
    .header("content-disposition", contentDisposition(kind, download.fileName))
    .header("x-content-type-options", "nosniff")
    .send(download.stream);
}
