import { ValidationError } from "../../../domain/errors.js";
import { type ItemRef, parseItemId } from "../../../domain/item-id.js";
import { type QueryValues, clip, queryFlag, queryValue } from "../../query.js";

/** A download: which item, which version (current when absent), and whether the thumbnail. */
export interface DownloadRead {
  readonly ref: ItemRef;
  readonly version: number | undefined;
  readonly thumbnail: boolean;
}

/** Reads `GET /api/fileDownload/V2` parameters. @throws ValidationError PARAMETER_REQUIRED, INVALID_ID, INVALID_VERSION */
export function readDownloadQuery(query: QueryValues): DownloadRead {
  const id = queryValue(query, "id");
  if (id === undefined) throw new ValidationError("PARAMETER_REQUIRED", "The query parameter id is required.");
  const ref = parseItemId(id);
  if (ref === undefined) throw new ValidationError("INVALID_ID", `id must be an item id such as GROUP,1:1,CABINET,1:4 (got "${clip(id)}").`);
  const version = queryValue(query, "version")?.trim();
  if (version !== undefined && !/^[1-9][0-9]{0,8}$/.test(version)) {
    throw new ValidationError("INVALID_VERSION", `version must be a version number of 1 or more (got "${clip(version)}").`);
  }
  return { ref, version: version === undefined ? undefined : Number(version), thumbnail: queryFlag(query, "thumbnail") };
}
