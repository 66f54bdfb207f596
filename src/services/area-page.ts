// The web's list pages: a board, task list or shared folder together with the area's folders
// (the pages offer them as filters). Each part is read by the API's own service.
import type { Actor } from "../domain/access.js";
import type { CabinetFilter } from "../domain/file.js";
import type { Folder, FolderArea, FolderFilter } from "../domain/folder.js";
import type { TaskFilter } from "../domain/task.js";
import { LIMITS } from "../domain/limits.js";
import type { MemberStatus } from "../domain/member.js";
import type { Page } from "../store/store.js";
import { type CabinetView, listFiles } from "./file.js";
import { listFolders } from "./group.js";
import { type MemberListView, listMembers } from "./member.js";
import { type TaskListView, listTasks } from "./task.js";
import { type BoardView, listTopics } from "./topic.js";
import type { ServiceContext } from "./context.js";

/** How many folders a filter offers. */
const FOLDERS_SHOWN = LIMITS.pageSizeMax;

async function foldersOf(ctx: ServiceContext, actor: Actor, groupId: number, area: FolderArea): Promise<Folder[]> {
  return (await listFolders(ctx, actor, { groupId, area, page: { offset: 0, limit: FOLDERS_SHOWN } })).folders;
}

/** A page of a board with its folders. @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readBoardPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; filter: FolderFilter; page: Page },
): Promise<BoardView & { folders: Folder[] }> {
  const view = await listTopics(ctx, actor, { ...input, embedComments: false });
  return { ...view, folders: await foldersOf(ctx, actor, input.groupId, "BOARD") };
}

/** A page of a task list with its folders. @throws as {@link readBoardPage} */
export async function readTaskListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: FolderFilter; filter: TaskFilter; page: Page },
): Promise<TaskListView & { folders: Folder[] }> {
  const view = await listTasks(ctx, actor, { ...input, embedComments: false });
  return { ...view, folders: await foldersOf(ctx, actor, input.groupId, "TASK") };
}

/** A page of a shared folder with its folders. @throws as {@link readBoardPage} */
export async function readFileListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: CabinetFilter; page: Page },
): Promise<CabinetView & { folders: Folder[] }> {
  const view = await listFiles(ctx, actor, { ...input, embedHistory: false });
  return { ...view, folders: await foldersOf(ctx, actor, input.groupId, "CABINET") };
}

/** A page of a group's members of one status, with the count of each status (the page's tabs). @throws as {@link readBoardPage} */
export async function readMemberListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; status: MemberStatus; page: Page },
): Promise<MemberListView & { counts: Readonly<Record<MemberStatus, number>> }> {
  const view = await listMembers(ctx, actor, input);
  const otherStatus: MemberStatus = input.status === "JOIN" ? "INVITE" : "JOIN";
  const other = await listMembers(ctx, actor, {
    groupId: input.groupId,
    status: otherStatus,
    page: { offset: 0, limit: 1 },
  });
  return {
    ...view,
    counts: { [input.status]: view.totalCount, [otherStatus]: other.totalCount } as Record<MemberStatus, number>,
  };
}
