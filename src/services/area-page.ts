// The web's list pages: a board, task list or shared folder together with the area's folders
// (the pages offer them as filters). Each part is read by the API's own service.
import type { Actor } from "../domain/access.js";
import type { CabinetFilter } from "../domain/file.js";
import type { Folder, FolderArea, FolderFilter } from "../domain/folder.js";
import type { TaskFilter } from "../domain/task.js";
import { LIMITS } from "../domain/limits.js";
import type { MemberStatus } from "../domain/member.js";
import type { Store } from "../store/store.js";
import { type CabinetView, listFiles } from "./file.js";
import { listFolders } from "./group.js";
import { type MemberListView, listMembers } from "./member.js";
import { type TaskListView, listTasks } from "./task.js";
import { type BoardView, listTopics } from "./topic.js";
import type { PageWindow } from "../store/page-window.js";

/** How many folders a filter offers. */
const FOLDERS_SHOWN = LIMITS.pageSizeMax;

async function foldersOf(store: Store, actor: Actor, groupId: number, area: FolderArea): Promise<Folder[]> {
  return (await listFolders(store, actor, { groupId, area, page: { offset: 0, limit: FOLDERS_SHOWN } })).folders;
}

/** A page of a board with its folders. @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readBoardPage(
  store: Store,
  actor: Actor,
  input: { groupId: number; filter: FolderFilter; page: PageWindow },
): Promise<BoardView & { folders: Folder[] }> {
  const view = await listTopics(store, actor, { ...input, embedComments: false });
  return { ...view, folders: await foldersOf(store, actor, input.groupId, "BOARD") };
}

/** A page of a task list with its folders. @throws as {@link readBoardPage} */
export async function readTaskListPage(
  store: Store,
  actor: Actor,
  input: { groupId: number; folder: FolderFilter; filter: TaskFilter; page: PageWindow },
): Promise<TaskListView & { folders: Folder[] }> {
  const view = await listTasks(store, actor, { ...input, embedComments: false });
  return { ...view, folders: await foldersOf(store, actor, input.groupId, "TASK") };
}

/** A page of a shared folder with its folders. @throws as {@link readBoardPage} */
export async function readFileListPage(
  store: Store,
  actor: Actor,
  input: { groupId: number; folder: CabinetFilter; page: PageWindow },
): Promise<CabinetView & { folders: Folder[] }> {
  const view = await listFiles(store, actor, { ...input, embedHistory: false });
  return { ...view, folders: await foldersOf(store, actor, input.groupId, "CABINET") };
}

/** A page of a group's members of one status, with the count of each status (the page's tabs). @throws as {@link readBoardPage} */
export async function readMemberListPage(
  store: Store,
  actor: Actor,
  input: { groupId: number; status: MemberStatus; page: PageWindow },
): Promise<MemberListView & { counts: Readonly<Record<MemberStatus, number>> }> {
  const view = await listMembers(store, actor, input);
  const otherStatus: MemberStatus = input.status === "JOIN" ? "INVITE" : "JOIN";
  const other = await listMembers(store, actor, {
    groupId: input.groupId,
    status: otherStatus,
    page: { offset: 0, limit: 1 },
  });
  return {
    ...view,
    counts: { [input.status]: view.totalCount, [otherStatus]: other.totalCount } as Record<MemberStatus, number>,
  };
}
