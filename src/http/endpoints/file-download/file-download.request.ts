import { ValidationError } from "../../../domain/errors.js";
import { parseAttachmentId, parseChatAttachmentId } from "../../../domain/item-id.js";
import type { DownloadRequest } from "../../../services/file/download.js";
import { readItemId } from "../../../http-kit/parameters.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../../http-kit/query.js";

/**
 * Reads `GET /api/fileDownload/V2`: `id` (a comment's or chat message's attachment id, or any item id), and for shared-folder
 * files `version=N` (current when absent) and `thumbnail=true`.
 * @throws ValidationError PARAMETER_REQUIRED, INVALID_ID, INVALID_VERSION
 */
export function readDownloadQuery(query: QueryValues): DownloadRequest {
  const id = queryValue(query, "id");
  if (id === undefined)
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id (the file's id) is required.");
  const ref = parseAttachmentId(id) ?? parseChatAttachmentId(id) ?? readItemId(id, "id");
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
