// Deleting a group for good: the one place that removes a group with its content, its files'
// bytes and its memberships, for the administration's page and `kairan group delete`.
import { groupTarget } from "../../domain/audit.js";
import { ValidationError } from "../../domain/errors.js";
import type { Group } from "../../domain/group.js";
import type { Administrator } from "../account/site-admin.js";
import { requireGroup } from "../admin-lookup.js";
import { recordAudit } from "../audit/audit-log.js";
import { removeBlobs } from "../comment/comment-detail.js";
import type { ServiceContext } from "../context.js";
import { adminAct } from "./group-admin.js";

/**
 * Deletes a group, archived or not, with everything in it: topics, tasks, files (every version),
 * events, comments with their attachments, likes, favorites, notifications, invitations and
 * memberships. The rows go in one transaction, the bytes after it commits. `confirmName`, when
 * given (the web form), must be the group's name exactly, or nothing happens. The audit row
 * keeps the group's id and name in its target (its link to the group is gone with it).
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError GROUP_NOT_FOUND; ValidationError GROUP_DELETE_UNCONFIRMED
 */
export async function deleteGroup(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly groupId: number; readonly confirmName?: string },
): Promise<{ group: Group; blobsRemoved: number }> {
  const tried = { action: "group.delete", actor: by.audit, groupId: input.groupId } as const;
  const { group, keys } = await adminAct(ctx, by, tried, async (tx) => {
    const found = await requireGroup(tx, input.groupId);
    if (input.confirmName !== undefined && input.confirmName !== found.name)
      throw new ValidationError("GROUP_DELETE_UNCONFIRMED", "Type the group's name exactly to delete it.");
    const members = await tx.memberships.countMembers(found.id, "JOIN");
    const removed = await tx.groupAdmin.removeWithContent(found.id);
    await recordAudit(tx, ctx.clock, {
      action: "group.delete",
      actor: by.audit,
      target: groupTarget(found),
      details: { name: found.name, members, blobs: removed.length },
    });
    return { group: found, keys: removed };
  });
  await removeBlobs(ctx.blobs, keys);
  return { group, blobsRemoved: keys.length };
}
