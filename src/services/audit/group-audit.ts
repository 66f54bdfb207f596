// A group's part of the audit log, for its managers: the rows naming the group, newest first, a
// page at a time (by id, so rows written meanwhile never shift a page).
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { AuditEventRow } from "../../store/queries/audit-events.js";
import type { ServiceContext } from "../context.js";
import { requireGroupManager } from "../group/group-access.js";

/** Rows on one page of a group's log. */
export const GROUP_AUDIT_PAGE = 50;

/** One page of a group's log, and the id to read the older page before, when there is one. */
export interface GroupAuditPage {
  readonly group: Group;
  readonly rows: readonly AuditEventRow[];
  readonly olderBefore: number | undefined;
}

/**
 * The group's rows older than `beforeId` (the newest when not given), for a manager of it.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function listGroupAudit(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; beforeId?: number | undefined },
): Promise<GroupAuditPage> {
  return ctx.store.read(async (tx) => {
    const group = await requireGroupManager(tx, actor, input.groupId);
    const rows = await tx.auditEvents.list({
      groupId: group.id,
      ...(input.beforeId === undefined ? {} : { beforeId: input.beforeId }),
      limit: GROUP_AUDIT_PAGE + 1,
    });
    const page = rows.slice(0, GROUP_AUDIT_PAGE);
    const last = page.at(-1);
    return { group, rows: page, olderBefore: rows.length > GROUP_AUDIT_PAGE && last ? Number(last.id) : undefined };
  });
}
