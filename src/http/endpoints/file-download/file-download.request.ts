import { ValidationError } from "../../../domain/errors.js";
import { parseAttachmentId } from "../../../domain/item-id.js";
import type { DownloadRef } from "../../../services/download.js";
import { readItemId } from "../../atom-request.js";
import { type QueryValues, queryValue } from "../../query.js";

/** The `id` of `GET /api/fileDownload/V2`: an attachment id, or any item id (files later). @throws ValidationError */
export function readDownloadQuery(query: QueryValues): DownloadRef {
  const id = queryValue(query, "id");
  if (id === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id (the file's id) is required.");
  return parseAttachmentId(id) ?? readItemId(id, "id");
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII `filename` for old clients, and the
 * exact name as UTF-8 in `filename*` (RFC 5987) for the rest.
 */
export function contentDisposition(fileName: string): string {
  // Anything outside printable ASCII, and the characters that quoting or decoding would trip on.
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
