import { element, escapeAttribute, utcTimestamp } from "../atom/build.js";
import { type CabinetFile, type FileVersion, fileTitle } from "../domain/file.js";
import type { Group } from "../domain/group.js";
import { type ContentRef, formatAttachmentId, formatContentId, formatGroupId, formatPair } from "../domain/item-id.js";
import type { CabinetView } from "../services/file/file.js";
import {
  type Viewer,
  authorElement,
  feedDocument,
  newestOf,
  summaryElement,
  titleElement,
  authoredHead,
  itemEntry,
} from "./feed.js";
import { areaLinks, contentLinks } from "../domain/item-links.js";
import { groupElement } from "./topic.js";
import { changeParts, nextChangesLink } from "./changes.js";

/** The shared-files feed (`GET /api/gwCabinet/V2`): a page of files, or one file. */
export function cabinetFeed(
  baseUrl: string,
  viewer: Viewer,
  view: CabinetView,
  now: number,
  nextChanges?: string | undefined,
): string {
  const { tombstones, entries } = changeParts(
    view.changes,
    view.files,
    (file) => file.id,
    (file) => fileEntry(baseUrl, view.group, file, view.histories?.get(file.id)),
    (gone) => formatContentId({ kind: "CABINET", groupId: view.group.id, id: gone.itemId }),
  );
  return feedDocument(
    {
      title: view.group.name,
      id: formatGroupId(view.group.id),
      alternate: areaLinks(baseUrl, view.group.id, "CABINET").alternate,
      viewer,
      updated: newestOf(view.files, now),
      extra: nextChangesLink(nextChanges) + tombstones,
    },
    entries,
  );
}

/** The download URL of a file, a version of it, or its thumbnail. */
export function downloadUrl(
  baseUrl: string,
  fileId: string,
  options: { version?: number; thumbnail?: boolean } = {},
): string {
  const version = options.version === undefined ? "" : `&version=${options.version}`;
  return `${baseUrl}/api/fileDownload/V2?id=${encodeURIComponent(fileId)}${version}${options.thumbnail ? "&thumbnail=true" : ""}`;
}

/** A file entry: common fields in the order of docs/api.md "Answers", then the file's own in the specification's order. */
export function fileEntry(
  baseUrl: string,
  group: Group,
  file: CabinetFile,
  history: readonly FileVersion[] | undefined,
): string {
  // A comment attachment (the ATTACH folder) is named by its attachment id and links to its comment's item.
  const ref: ContentRef = file.attachment?.parent ?? { kind: "CABINET", groupId: file.groupId, id: file.id };
  const id = file.attachment
    ? formatAttachmentId(file.attachment.parent, file.attachment.commentNumber, file.attachment.position)
    : formatContentId(ref);
  const version = file.current;
  return itemEntry(
    authoredHead(id, contentLinks(baseUrl, ref), { ...file, title: fileTitle(file) }, file.memo),
    element("cblCbnt:fileName", {}, version.fileName) +
      element("cblCbnt:fileSize", {}, String(version.size)) +
      (version.width === null ? "" : element("cblCbnt:imageFileWidth", {}, String(version.width))) +
      (version.height === null ? "" : element("cblCbnt:imageFileHeight", {}, String(version.height))) +
      element("cblCbnt:thumbnailExists", {}, String(version.thumbnailKey !== null)) +
      (file.folderId === null
        ? ""
        : element("cblCbnt:folder", { valueString: file.folderName ?? "", id: formatPair(file.folderId) })) +
      element("cblCbnt:versionNumber", {}, String(version.number)) +
      groupElement(group) +
      (history === undefined ? "" : historiesElement(baseUrl, id, file, history)),
  );
}

/** `cblCbnt:histories/cbl:feedLink`: a sub-feed of the newest versions, newest first. */
function historiesElement(baseUrl: string, fileId: string, file: CabinetFile, history: readonly FileVersion[]): string {
  return (
    `<cblCbnt:histories><cbl:feedLink href="${escapeAttribute(downloadUrl(baseUrl, fileId))}"><feed>` +
    titleElement(fileTitle(file)) +
    element("id", {}, fileId) +
    element("updated", {}, utcTimestamp(file.updatedAt)) +
    history.map((version) => historyEntry(baseUrl, fileId, version)).join("") +
    "</feed></cbl:feedLink></cblCbnt:histories>"
  );
}

/** One version; its id is the URL that downloads it, unique and stable. */
function historyEntry(baseUrl: string, fileId: string, version: FileVersion): string {
  return (
    "<entry>" +
    element("id", {}, downloadUrl(baseUrl, fileId, { version: version.number })) +
    titleElement(version.fileName) +
    authorElement(version.authorName, version.authorId) +
    element("updated", {}, utcTimestamp(version.createdAt)) +
    (version.comment === "" ? "" : summaryElement(version.comment)) +
    element("cblCbnt:versionNumber", {}, String(version.number)) +
    element("cblCbnt:fileName", {}, version.fileName) +
    "</entry>"
  );
}
