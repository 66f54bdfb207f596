// The web's list pages: a board, task list or shared folder together with the area's folders
// (the pages offer them as filters). Each part is read by the API's own service.
import type { Actor } from "../../domain/access.js";
import type { CabinetFilter } from "../../domain/file.js";
import type { Folder, FolderArea, FolderFilter } from "../../domain/folder.js";
import type { TaskFilter } from "../../domain/task.js";
import { LIMITS } from "../../domain/limits.js";
import type { MemberStatus } from "../../domain/member.js";
import type { PageWindow } from "../../store/page-window.js";
import { type CabinetView, listFiles } from "../file/file.js";
import { listFolders } from "../group/group.js";
import { type MemberListView, listMembers } from "../member/member.js";
import { type TaskListView, listTasks } from "../task/task.js";
import { type BoardView, listTopics } from "../topic/topic.js";
import type { ServiceContext } from "../context.js";

/** How many folders a filter offers. */
const FOLDERS_SHOWN = LIMITS.pageSizeMax;

/** A list page's view: the API's view of the area, and the area's folders to filter by. */
type WithFolders<V> = V & { readonly folders: readonly Folder[] };

/** What a board page shows. */
export type BoardPageView = WithFolders<BoardView>;
/** What a task list page shows. */
export type TaskListPageView = WithFolders<TaskListView>;
/** What a shared folder page shows. */
export type FileListPageView = WithFolders<CabinetView>;
/** What a member list page shows: one status, and how many members each status has (the tabs). */
export type MemberListPageView = MemberListView & { readonly counts: Readonly<Record<MemberStatus, number>> };

async function withFolders<V>(
  ctx: ServiceContext,
  actor: Actor,
  area: FolderArea,
  view: V & { readonly group: { readonly id: number } },
): Promise<WithFolders<V>> {
  const page = { offset: 0, limit: FOLDERS_SHOWN };
  const { folders } = await listFolders(ctx, actor, { groupId: view.group.id, area, page });
  return { ...view, folders };
}

/** A page of a board with its folders. @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readBoardPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; filter: FolderFilter; page: PageWindow },
): Promise<BoardPageView> {
  return withFolders(ctx, actor, "BOARD", await listTopics(ctx, actor, { ...input, embedComments: false }));
}

/** A page of a task list with its folders. @throws as {@link readBoardPage} */
export async function readTaskListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: FolderFilter; filter: TaskFilter; page: PageWindow },
): Promise<TaskListPageView> {
  return withFolders(ctx, actor, "TASK", await listTasks(ctx, actor, { ...input, embedComments: false }));
}

/** A page of a shared folder with its folders. @throws as {@link readBoardPage} */
export async function readFileListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: CabinetFilter; page: PageWindow },
): Promise<FileListPageView> {
  return withFolders(ctx, actor, "CABINET", await listFiles(ctx, actor, { ...input, embedHistory: false }));
}

/** A page of a group's members of one status, with the count of each status (the page's tabs). @throws as {@link readBoardPage} */
export async function readMemberListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; status: MemberStatus; page: PageWindow },
): Promise<MemberListPageView> {
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
