// A group's board (`/g/1:n/board`: folders, paging, trash) and a topic's page (`/g/1:n/board/1:m`).
import type { FastifyInstance } from "fastify";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import { readFolderParameter } from "../../http-kit/parameters.js";
import { queryValue } from "../../http-kit/query.js";
import { readBoardPage } from "../../services/item/area-page.js";
import { type TopicPageView, readTopicPage } from "../../services/item/item-page.js";
import type { Chrome } from "../chrome.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { PAGE_SIZE, paged, readPageNumber, withQuery } from "../paging.js";
import { commentFeedHref, itemFolderHref, itemPath, itemSections, requestedComments } from "./item-view.js";
import { areaHead } from "./area-head.js";

/** `/g/:group/board` and `/g/:group/board/:topic`. */
export function registerBoardPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/g/:group/board", { GET: (page) => boardPage(web, page) });
  registerPage(app, web, "/g/:group/board/:topic", { GET: (page) => topicPage(web, page) });
}

async function boardPage(web: WebContext, page: PageRequest) {
  const groupId = pathPair(page, "group");
  const folderParam = queryValue(page.query, "folder");
  const filter = readFolderParameter(folderParam, "folder");
  const request = readPageNumber(page.query);
  const view = await readBoardPage(web, page.actor, { groupId, filter, page: request.fetch });
  const path = `/g/${formatPair(groupId)}/board`;
  const folderKey = filterKey(filter);
  const feedQuery = new URLSearchParams({ group: formatPair(groupId) });
  if (folderKey !== "") feedQuery.set("board-folder", folderKey);
  return page.render("board", {
    ...areaHead(web, page, view.group, "board", feedQuery),
    folders: folderLinks(page.chrome, path, view.folders, folderKey),
    manageFoldersHref: view.mayManageFolders ? page.chrome.u(`${path}/folders`) : undefined,
    inTrash: filter.kind === "trash",
    newTopicHref: page.chrome.u(
      withQuery(`${path}/new`, { folder: filter.kind === "folder" ? formatPair(filter.folderId) : undefined }),
    ),
    topics: paged(
      view.topics.map((topic) => ({ ...topic, mark: view.unread.get(topic.id) })),
      request,
      (n) => page.chrome.u(withQuery(path, { folder: folderParam, page: n })),
    ),
    topicHref: (id: number) => page.chrome.u(`${path}/${formatPair(id)}`),
    pageSize: PAGE_SIZE,
  });
}

/** The filter as the `folder` parameter writes it ("" for every folder). */
export function filterKey(filter: { kind: string; folderId?: number }): string {
  if (filter.kind === "folder" && filter.folderId !== undefined) return formatPair(filter.folderId);
  return filter.kind === "all" ? "" : filter.kind.toUpperCase();
}

/** The folder filter links of a list page: all, each folder, unfiled, then the extra words (trash, attachments). */
export function folderLinks(
  chrome: Chrome,
  path: string,
  folders: readonly { id: number; name: string }[],
  current: string,
  options: { all?: string; extra?: readonly { key: string; label: string }[] } = {},
): { key: string; href: string; label: string; current: boolean }[] {
  const extra = options.extra ?? [{ key: "TRASH", label: chrome.t("board.trash") }];
  const entries = [
    { key: "", label: options.all ?? chrome.t("board.allFolders") },
    ...folders.map((folder) => ({ key: formatPair(folder.id), label: folder.name })),
    { key: "UNCLASSIFIED", label: chrome.t("board.unclassified") },
    ...extra,
  ];
  return entries.map((entry) => ({
    ...entry,
    href: chrome.u(withQuery(path, { folder: entry.key })),
    current: entry.key === current,
  }));
}

async function topicPage(web: WebContext, page: PageRequest) {
  const ref: ContentRef = { kind: "BOARD", groupId: pathPair(page, "group"), id: pathPair(page, "topic") };
  const { request, window } = requestedComments(page);
  const view = await readTopicPage(web, page.actor, { ref, page: window });
  const path = itemPath(ref);
  return page.render("topic", {
    title: `${view.topic.title} · ${view.group.name}`,
    group: view.group,
    area: "board",
    feed: { title: view.topic.title, href: commentFeedHref(web.baseUrl(), ref) },
    topic: view.topic,
    authorAvatar: page.chrome.avatar(
      view.topic.authorId,
      view.topic.authorName,
      view.pictures.get(view.topic.authorId),
    ),
    editedBy: view.editedBy,
    actions: topicActions(page.chrome, path, view),
    folderHref: itemFolderHref(page.chrome, ref, view.topic.folderId),
    ...itemSections(page, ref, view, request),
  });
}

/**
 * The buttons a topic's page offers the viewer: Edit (takes the lease) and filing for those who
 * may edit; the trash for the author and managers; in the trash, Restore and Delete for good.
 */
function topicActions(chrome: Chrome, path: string, view: TopicPageView) {
  const { topic } = view;
  const live = !topic.trashed;
  const action = (name: string, allowed: boolean) => (allowed ? chrome.u(`${path}/${name}`) : undefined);
  const current = topic.folderId === null ? "UNCLASSIFIED" : formatPair(topic.folderId);
  const actions = {
    lock: action("lock", live && view.mayEdit),
    move: action("move", live && view.mayEdit),
    trash: action("trash", live && view.mayDelete),
    restore: action("restore", !live && view.mayDelete),
    purge: action("delete", !live && view.mayDelete),
    folders: [
      { value: "UNCLASSIFIED", label: chrome.t("board.unclassified") },
      ...view.folders.map((folder) => ({ value: formatPair(folder.id), label: folder.name })),
    ].map((folder) => ({ ...folder, current: folder.value === current })),
  };
  return { ...actions, any: [actions.lock, actions.trash, actions.restore].some((href) => href !== undefined) };
}
