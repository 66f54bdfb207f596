// A group's shared files (`/g/1:n/files`: folders, comment attachments, trash, the upload form)
// and a file's page (its versions, comments and likes, and what members do to it).
import type { FastifyInstance } from "fastify";
import { type CabinetFile, type CabinetFilter, fileTitle } from "../../domain/file.js";
import { type ContentRef, formatAttachmentId, formatContentId, formatPair } from "../../domain/item-id.js";
import { readFolderParameter } from "../../http-kit/parameters.js";
import { queryValue } from "../../http-kit/query.js";
import { readFileListPage } from "../../services/item/area-page.js";
import { readFilePage } from "../../services/item/item-page.js";
import { LIMITS } from "../../domain/limits.js";
import type { Chrome } from "../chrome.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import { PAGE_SIZE, paged, readPageNumber, withQuery } from "../paging.js";
import { filterKey, folderLinks } from "./board.js";
import {
  commentFeedHref,
  downloadHref,
  itemFolderHref,
  itemPath,
  itemSections,
  requestedComments,
} from "./item-view.js";
import { areaHead } from "./area-head.js";
import {
  type ShownForm,
  type UploadValues,
  type VersionValues,
  folderChoices,
  registerFileActions,
  uploadFromForm,
} from "./file-actions.js";

/** `/g/:group/files` (and its upload), `/g/:group/files/:file` and the file's actions. */
export function registerFilePages(app: FastifyInstance, web: WebContext): void {
  registerPage(
    app,
    web,
    "/g/:group/files",
    {
      GET: (page) => fileListPage(web, page),
      POST: (page) => uploadFromForm(web, page, (form) => fileListPage(web, page, form)),
    },
    { multipart: true },
  );
  registerPage(app, web, "/g/:group/files/:file", { GET: (page) => filePage(web, page) });
  registerFileActions(app, web, (page, form) => filePage(web, page, form));
}

async function fileListPage(web: WebContext, page: PageRequest, form?: ShownForm<UploadValues>) {
  const groupId = pathPair(page, "group");
  const folderParam = queryValue(page.query, "folder");
  const folder = readFolderParameter(folderParam, "folder", ["ATTACH"]) as CabinetFilter;
  const request = readPageNumber(page.query);
  const view = await readFileListPage(web, page.actor, { groupId, folder, page: request.fetch });
  const path = `/g/${formatPair(groupId)}/files`;
  const key = folder.kind === "attach" ? "ATTACH" : filterKey(folder);
  const feedQuery = new URLSearchParams({ group: formatPair(groupId) });
  if (key !== "") feedQuery.set("cabinet-folder", key);
  const uploadValues = form?.values ?? {
    title: "",
    memo: "",
    folder: folder.kind === "folder" ? key : "",
    sameName: "",
  };
  return page.render(
    "files",
    {
      ...areaHead(web, page, view.group, "files", feedQuery),
      folders: folderLinks(page.chrome, path, view.folders, key, {
        all: page.chrome.t("files.allFolders"),
        extra: [
          { key: "ATTACH", label: page.chrome.t("files.attach") },
          { key: "TRASH", label: page.chrome.t("board.trash") },
        ],
      }),
      manageFoldersHref: view.mayManageFolders ? page.chrome.u(`${path}/folders`) : undefined,
      files: paged(
        view.files.map((file) => ({
          ...fileRow(page.chrome, file),
          mark: file.attachment ? undefined : view.unread.get(file.id),
        })),
        request,
        (n) => page.chrome.u(withQuery(path, { folder: folderParam, page: n })),
      ),
      pageSize: PAGE_SIZE,
      inTrash: folder.kind === "trash",
      // Files are uploaded into a folder of the shared folder, never into the trash or the attachments.
      upload:
        folder.kind === "trash" || folder.kind === "attach"
          ? undefined
          : {
              action: page.chrome.u(path),
              values: uploadValues,
              error: form?.error,
              // The folder holds the uploaded file's name: the form asks what the upload is.
              askSameName: form?.code === "FILE_NAME_EXISTS",
              folders: folderChoices(view.folders),
              maxFileBytes: LIMITS.fileMaxBytes,
            },
    },
    form === undefined ? 200 : 400,
  );
}

/** A file as the list shows it; an attachment links to the item its comment is on. */
function fileRow(chrome: Chrome, file: CabinetFile) {
  const attachment = file.attachment;
  const id = attachment
    ? formatAttachmentId(attachment.parent, attachment.commentNumber, attachment.position)
    : formatContentId({ kind: "CABINET", groupId: file.groupId, id: file.id });
  const page = attachment
    ? `${itemPath(attachment.parent)}#comment-${attachment.commentNumber}`
    : itemPath({ kind: "CABINET", groupId: file.groupId, id: file.id });
  return {
    title: fileTitle(file),
    fileName: file.current.fileName,
    size: file.current.size,
    version: file.current.number,
    updatedAt: file.updatedAt,
    authorName: file.authorName,
    href: chrome.u(page),
    // A file in the trash is restored from the trash's list too, without opening it first.
    restoreAction: file.trashed && !attachment ? chrome.u(`${page}/restore`) : undefined,
    downloadHref: downloadHref(id),
    thumbnailHref: file.current.thumbnailKey === null ? undefined : withQuery("/download", { id, thumbnail: "true" }),
  };
}

async function filePage(web: WebContext, page: PageRequest, form?: ShownForm<VersionValues>) {
  const ref: ContentRef = { kind: "CABINET", groupId: pathPair(page, "group"), id: pathPair(page, "file") };
  const { request, window } = requestedComments(page);
  const view = await readFilePage(web, page.actor, { ref, page: window });
  const id = formatContentId(ref);
  const path = itemPath(ref);
  return page.render(
    "file",
    {
      title: `${fileTitle(view.file)} · ${view.group.name}`,
      group: view.group,
      area: "files",
      feed: { title: fileTitle(view.file), href: commentFeedHref(web.baseUrl(), ref) },
      file: {
        ...fileRow(page.chrome, view.file),
        memo: view.file.memo,
        trashed: view.file.trashed,
        folderName: view.file.folderName,
        width: view.file.current.width,
        height: view.file.current.height,
      },
      folderHref: itemFolderHref(page.chrome, ref, view.file.folderId),
      history: view.history.map((version) => ({
        number: version.number,
        fileName: version.fileName,
        size: version.size,
        authorName: version.authorName,
        createdAt: version.createdAt,
        comment: version.comment,
        href: downloadHref(id, { version: version.number }),
      })),
      ...itemSections(page, ref, view, request),
      actions: {
        versionAction: page.chrome.u(`${path}/versions`),
        moveAction: page.chrome.u(`${path}/move`),
        trashAction: page.chrome.u(`${path}/trash`),
        restoreAction: page.chrome.u(`${path}/restore`),
        deleteAction: view.mayDelete ? page.chrome.u(`${path}/delete`) : undefined,
        folder: view.file.folderId === null ? "" : formatPair(view.file.folderId),
        folders: folderChoices(view.folders),
        comment: form?.values.comment ?? "",
        error: form?.error,
        maxFileBytes: LIMITS.fileMaxBytes,
      },
    },
    form === undefined ? 200 : 400,
  );
}
