// A group's task list as a download: the tasks the list page would show under the same filters,
// every page of them at once (at most LIMITS.taskExportRowsMax, the most recently changed).
import type { Actor } from "../../domain/access.js";
import type { FolderFilter } from "../../domain/folder.js";
import type { Group } from "../../domain/group.js";
import { LIMITS } from "../../domain/limits.js";
import type { Task, TaskFilter } from "../../domain/task.js";
import { requireFolderOf } from "../group/folder-access.js";
import { requireGroupMember } from "../group/group-access.js";
import type { ServiceContext } from "../context.js";

/** What the task list download holds. */
export interface TaskExport {
  readonly group: Group;
  readonly tasks: readonly Task[];
}

/**
 * The group's tasks under the list page's filters, newest change first.
 * @throws NotFoundError GROUP_NOT_FOUND, FOLDER_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function readTaskExport(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; folder: FolderFilter; filter: TaskFilter },
): Promise<TaskExport> {
  return ctx.store.read(async (tx) => {
    const { group } = await requireGroupMember(tx, actor, input.groupId);
    if (input.folder.kind === "folder") await requireFolderOf(tx, group.id, input.folder.folderId, "TASK");
    const tasks = await tx.tasks.list(group.id, input.folder, input.filter, {
      offset: 0,
      limit: LIMITS.taskExportRowsMax,
    });
    return { group, tasks };
  });
}
