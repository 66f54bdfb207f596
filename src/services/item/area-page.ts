// The web's list pages: a board, task list or shared folder together with the area's folders
// (the pages offer them as filters) and the marks of what is new to the reader. Each part is read
// by the API's own service.
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
import type { SeenableItem, UnreadMark } from "../../domain/unread.js";
import { readUnreadMarks } from "../unread/unread.js";

/** How many folders a filter offers: all of an area's. */
const FOLDERS_SHOWN = LIMITS.foldersPerAreaMax;

/**
 * A list page's view: the API's view of the area, the area's folders to filter by, whether the
 * reader manages them, and what is new to the reader.
 */
type WithFolders<V> = V & {
  readonly folders: readonly Folder[];
  readonly mayManageFolders: boolean;
  readonly unread: ReadonlyMap<number, UnreadMark>;
};

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
  items: readonly SeenableItem[],
): Promise<WithFolders<V>> {
  const page = { offset: 0, limit: FOLDERS_SHOWN };
  const { folders, mayManage } = await listFolders(ctx, actor, { groupId: view.group.id, area, page });
  const unread = await readUnreadMarks(ctx, actor, { groupId: view.group.id, kind: area, items });
  return { ...view, folders, mayManageFolders: mayManage, unread };
}

/** A page of a board with its folders. @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED */
export async function readBoardPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; filter: FolderFilter; page: PageWindow },
): Promise<BoardPageView> {
  const view = await listTopics(ctx, actor, { ...input, embedComments: false });
  const items = view.topics.map((topic) => ({ ...topic, createdAt: topic.publishedAt }));
  return withFolders(ctx, actor, "BOARD", view, items);
}

/** A page of a task list with its folders. @throws as {@link readBoardPage} */
export async function readTaskListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: FolderFilter; filter: TaskFilter; page: PageWindow },
): Promise<TaskListPageView> {
  const view = await listTasks(ctx, actor, { ...input, embedComments: false });
  return withFolders(ctx, actor, "TASK", view, view.tasks);
}

/** A page of a shared folder with its folders. @throws as {@link readBoardPage} */
export async function readFileListPage(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: CabinetFilter; page: PageWindow },
): Promise<FileListPageView> {
  const view = await listFiles(ctx, actor, { ...input, embedHistory: false });
  // The attachments' view lists comment files, which are no items of their own.
  const items = view.files.filter((file) => !file.attachment);
  return withFolders(ctx, actor, "CABINET", view, items);
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
