// The folders of a group's board, tasks and files (`/g/1:n/board/folders`, `.../tasks/folders`,
// `.../files/folders`): add one, rename, move up or down, remove (its items become unclassified).
// Managers, and members when the group allows it; others see the list. Each button posts the same
// address with `change` and its fields.
import type { FastifyInstance } from "fastify";
import { ValidationError } from "../../domain/errors.js";
import type { FolderArea } from "../../domain/folder.js";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { LIMITS } from "../../domain/limits.js";
import { type FolderChange, changeFolder, readFolderList } from "../../services/folder/folder-write.js";
import { errorText } from "../i18n/i18n.js";
import { type PageRequest, type WebContext, pathPair, registerPage } from "../page.js";
import type { Area } from "./area-head.js";

/** The group's tabs that have folders. */
type FolderTab = Extract<Area, "board" | "tasks" | "files">;

/** Each area with folders: its path word (the group's tab) and the store's name of it. */
const AREAS: readonly { readonly area: FolderTab; readonly folderArea: FolderArea }[] = [
  { area: "board", folderArea: "BOARD" },
  { area: "tasks", folderArea: "TASK" },
  { area: "files", folderArea: "CABINET" },
];

/** `/g/:group/{board,tasks,files}/folders`. */
export function registerFolderPages(app: FastifyInstance, web: WebContext): void {
  for (const { area, folderArea } of AREAS) {
    registerPage(app, web, `/g/:group/${area}/folders`, {
      GET: (page) => foldersPage(web, page, area, folderArea),
      async POST(page) {
        const groupId = pathPair(page, "group");
        try {
          await changeFolder(web, page.actor, { groupId, area: folderArea, change: changeOf(page.form) });
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          return foldersPage(web, page, area, folderArea, errorText(page.chrome.lang, error.code, error.message));
        }
        return page.redirect(`/g/${formatPair(groupId)}/${area}/folders`);
      },
    });
  }
}

/** @throws ValidationError INVALID_CHANGE, INVALID_ID */
function changeOf(form: URLSearchParams): FolderChange {
  const change = form.get("change");
  const name = form.get("name") ?? "";
  if (change === "add") return { kind: "add", name };
  const folderId = parsePair(form.get("id") ?? "");
  if (folderId === undefined) throw new ValidationError("INVALID_ID", "id must name a folder.");
  if (change === "rename") return { kind: "rename", folderId, name };
  if (change === "up" || change === "down") return { kind: "shift", folderId, by: change === "up" ? -1 : 1 };
  if (change === "remove") return { kind: "remove", folderId };
  throw new ValidationError("INVALID_CHANGE", "change must be add, rename, up, down or remove.");
}

async function foldersPage(
  web: WebContext,
  page: PageRequest,
  area: FolderTab,
  folderArea: FolderArea,
  error?: string,
) {
  const view = await readFolderList(web, page.actor, { groupId: pathPair(page, "group"), area: folderArea });
  const { chrome } = page;
  const heading = chrome.t(`folders.title.${area}`);
  const areaPath = `/g/${formatPair(view.group.id)}/${area}`;
  return page.render(
    "folders",
    {
      title: `${heading} · ${view.group.name}`,
      heading,
      group: view.group,
      area,
      action: chrome.u(`${areaPath}/folders`),
      backHref: chrome.u(areaPath),
      backLabel: chrome.t(`${area}.title`),
      mayManage: view.mayManage,
      full: view.folders.length >= LIMITS.foldersPerAreaMax,
      maxChars: LIMITS.folderNameMaxChars,
      folders: view.folders.map((folder, index) => ({
        id: formatPair(folder.id),
        key: String(folder.id),
        name: folder.name,
        href: chrome.u(`${areaPath}?folder=${formatPair(folder.id)}`),
        first: index === 0,
        last: index === view.folders.length - 1,
      })),
      error,
    },
    error === undefined ? 200 : 400,
  );
}
