import { ValidationError } from "../../../domain/errors.js";
import { parseAttachmentId } from "../../../domain/item-id.js";
import type { DownloadRequest } from "../../../services/download.js";
import { readItemId } from "../../atom-request.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../query.js";

/**
 * Reads `GET /api/fileDownload/V2`: `id` (an attachment id or any item id), and for shared-folder
 * files `version=N` (current when absent) and `thumbnail=true`.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_ID, INVALID_VERSION
 */
export function readDownloadQuery(query: QueryValues): DownloadRequest {
  const id = queryValue(query, "id");
  if (id === undefined)
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id (the file's id) is required.");
  const ref = parseAttachmentId(id) ?? readItemId(id, "id");
  const version = queryValue(query, "version")?.trim();
  if (version !== undefined && !/^[1-9][0-9]{0,8}$/.test(version)) {
    throw new ValidationError(
      "INVALID_VERSION",
      `version must be a version number of 1 or more (got "${clip(version)}").`,
    );
  }
  return {
    ref,
    version: version === undefined ? undefined : Number(version),
    thumbnail: queryFlag(query, "thumbnail"),
  };
}

/**
 * `Content-Disposition` for a download (RFC 6266): an ASCII `filename` for old clients, and the
 * exact name as UTF-8 in `filename*` (RFC 5987) for the rest.
 */
export function contentDisposition(fileName: string, kind: "attachment" | "inline" = "attachment"): string {
  // Anything outside printable ASCII, and the characters that quoting or decoding would trip on.
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
