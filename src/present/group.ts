import { element, utcTimestamp } from "../atom/build.js";
import type { Folder } from "../domain/folder.js";
import type { Group } from "../domain/group.js";
import { formatGroupId, formatPair } from "../domain/item-id.js";
import {
  type Viewer,
  authorElement,
  feedDocument,
  newestOf,
  webLinkElements,
  titleElement,
  itemEntry,
} from "./feed.js";
import { areaLinks, groupLinks } from "../domain/item-links.js";

/** The caller's groups (`GET /api/group/V2`). */
export function groupsFeed(baseUrl: string, viewer: Viewer, groups: readonly Group[], now: number): string {
  const entries = groups.map((group) => groupEntry(baseUrl, viewer, group));
  return feedDocument(
    {
      title: "Groups",
      id: `${baseUrl}/api/group/V2`,
      alternate: `${baseUrl}/`,
      viewer,
      updated: newestOf(groups, now),
    },
    entries,
  );
}

/** The folders of one area of a group (`/api/boardFolder/V2` and its siblings). */
export function foldersFeed(
  baseUrl: string,
  viewer: Viewer,
  group: Group,
  folders: readonly Folder[],
  area: Folder["area"],
): string {
  const links = areaLinks(baseUrl, group.id, area);
  const entries = folders.map(
    (folder) =>
      "<entry>" +
      element("id", {}, formatPair(folder.id)) +
      titleElement(folder.name) +
      webLinkElements({
        alternate: `${links.alternate}?folder=${formatPair(folder.id)}`,
        mobile: `${links.mobile}?folder=${formatPair(folder.id)}`,
      }) +
      authorElement(viewer.name, viewer.id) +
      element("updated", {}, utcTimestamp(group.updatedAt)) +
      element("cbl:group", { valueString: group.name, id: formatPair(group.id) }) +
      "</entry>",
  );
  return feedDocument(
    { title: group.name, id: formatGroupId(group.id), alternate: links.alternate, viewer, updated: group.updatedAt },
    entries,
  );
}

/** A group's entry as the groups feed writes it (the search's too): id, name, links, the caller as author, description. */
export function groupEntry(baseUrl: string, viewer: Viewer, group: Group): string {
  const id = formatGroupId(group.id);
  const author = authorElement(viewer.name, viewer.id);
  const links = groupLinks(baseUrl, group.id);
  return itemEntry({ id, title: group.name, links, author, updated: group.updatedAt, summary: group.summary }, "");
}
