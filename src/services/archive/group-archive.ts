// A group's archive for its managers (`GET /g/:group/export`): the same archive `kairan export
// --group ID` writes, read page by page as the download goes.
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { ServiceContext } from "../context.js";
import { requireGroupManager } from "../group/group-access.js";
import { type ArchivePart, archiveParts } from "./archive-export.js";

/** The group and its archive's parts, in order. */
export interface GroupArchive {
  readonly group: Group;
  readonly parts: AsyncGenerator<ArchivePart>;
}

/**
 * The archive of a group its manager asks for.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function readGroupArchive(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number },
): Promise<GroupArchive> {
  const group = await ctx.store.read((tx) => requireGroupManager(tx, actor, input.groupId));
  return { group, parts: archiveParts(ctx, [group.id], { chat: false }) };
}
