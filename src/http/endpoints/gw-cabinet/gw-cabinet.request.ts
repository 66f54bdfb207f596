import { ValidationError } from "../../../domain/errors.js";
import type { CabinetFilter } from "../../../domain/file.js";
import type { ContentRef } from "../../../domain/item-id.js";
import type { PageWindow } from "../../../store/page-window.js";
import { readContentId, readFolderParameter } from "../../../http-kit/parameters.js";
import { type QueryValues, queryFlag, queryValue } from "../../../http-kit/query.js";
import { readGroupParameter, readPage } from "../../../http-kit/parameters.js";
import type { ChangeCursor } from "../../../domain/changes.js";
import { readChangesSince } from "../../changes-link.js";

/** A shared-files read: a page of a group's files, or one file. */
export type CabinetRead =
  | {
      readonly kind: "list";
      readonly groupId: number;
      readonly folder: CabinetFilter;
      readonly page: PageWindow;
      readonly embedHistory: boolean;
      readonly changesSince: ChangeCursor | undefined;
    }
  | { readonly kind: "one"; readonly ref: ContentRef; readonly embedHistory: boolean };

/**
 * Reads `GET /api/gwCabinet/V2` parameters. The specification pairs `group` with `cabinet-folder`;
 * a client that sends no folder is answered like every other list: everything but the trash.
 * @throws ValidationError naming the parameter; NotFoundError FILE_NOT_FOUND for an id of another kind
 */
export function readCabinetQuery(query: QueryValues): CabinetRead {
  const embedHistory = queryFlag(query, "embed-history");
  const entry = queryValue(query, "entry");
  if (entry !== undefined) return { kind: "one", ref: readContentId(entry, "entry", "CABINET"), embedHistory };
  if (queryValue(query, "group") === undefined) {
    throw new ValidationError("PARAMETER_REQUIRED", "The query parameter group (or entry) is required.");
  }
  const groupId = readGroupParameter(query);
  const folder = readFolderParameter(queryValue(query, "cabinet-folder"), "cabinet-folder", ["ATTACH"]);
  const page = readPage(query);
  return { kind: "list", groupId, folder, page, embedHistory, changesSince: readChangesSince(query, page) };
}
