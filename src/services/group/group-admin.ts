// The groups as a site administrator runs them (/admin/groups, `kairan group archive|restore`):
// the list, a new group with its first manager, renaming, the managers, archiving and restoring.
// Each act checks the role inside its own transaction and writes its audit row there; a refused
// act writes a `refused` row. Deleting a group is group-delete.ts.
import { type AuditAction, type AuditEntry, groupTarget, membershipTarget } from "../../domain/audit.js";
import { NotFoundError } from "../../domain/errors.js";
import { type Group, requireNotArchived } from "../../domain/group.js";
import { checkGroupDraft } from "../../domain/group-rules.js";
import { type Member, requireKeepsAManager } from "../../domain/member.js";
import type { AdminGroupRow } from "../../store/queries/group-admin.js";
import type { Tx } from "../../store/store.js";
import { requireGroup, requireUserByEmail } from "../admin-lookup.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import type { ServiceContext } from "../context.js";
import { type Administrator, requireAdministrator } from "../account/site-admin.js";
import { insertGroup } from "./group-manage.js";

/** Groups on one page of the administration's list. */
export const GROUP_LIST_PAGE_SIZE = 50;

/** Joined members shown on a group's administration page. */
export const GROUP_MEMBERS_SHOWN = 200;

/** One page of the list and the `after` of the next (undefined on the last). */
export interface AdminGroupPage {
  readonly groups: readonly AdminGroupRow[];
  readonly nextAfter: number | undefined;
}

/** A group as its administration page shows it. */
export interface AdminGroupView {
  readonly group: Group;
  readonly members: readonly Member[];
  readonly memberCount: number;
}

/**
 * The groups after id `afterId` whose name contains `text`, with member counts and last
 * activity: one query per page, whatever the number of groups.
 * @throws ForbiddenError ADMIN_REQUIRED
 */
export async function listAdminGroups(
  ctx: ServiceContext,
  by: Administrator,
  query: { readonly text: string; readonly afterId: number },
): Promise<AdminGroupPage> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    const rows = await tx.groupAdmin.list({ ...query, limit: GROUP_LIST_PAGE_SIZE + 1 });
    const groups = rows.slice(0, GROUP_LIST_PAGE_SIZE);
    return { groups, nextAfter: rows.length > GROUP_LIST_PAGE_SIZE ? groups.at(-1)?.id : undefined };
  });
}

/**
 * One group with its joined members (managers first, at most GROUP_MEMBERS_SHOWN).
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError GROUP_NOT_FOUND
 */
export async function readAdminGroup(ctx: ServiceContext, by: Administrator, groupId: number): Promise<AdminGroupView> {
  return ctx.store.read(async (tx) => {
    await requireAdministrator(tx, by);
    const group = await requireGroup(tx, groupId);
    const members = await tx.memberships.listMembers(group.id, "JOIN", { limit: GROUP_MEMBERS_SHOWN, offset: 0 });
    const sorted = [...members].sort((a, b) => Number(b.manager) - Number(a.manager));
    return { group, members: sorted, memberCount: await tx.memberships.countMembers(group.id, "JOIN") };
  });
}

/**
 * Creates a group with its first manager, named by e-mail address.
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError GROUP_NAME_*, GROUP_SUMMARY_TOO_LONG; NotFoundError USER_NOT_FOUND
 */
export async function createGroupAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly name: string; readonly summary: string; readonly managerEmail: string },
): Promise<Group> {
  return adminAct(ctx, by, { action: "group.create", actor: by.audit, details: { name: input.name } }, async (tx) => {
    const draft = checkGroupDraft(input);
    const manager = await requireUserByEmail(tx, input.managerEmail.trim());
    const group = await insertGroup(tx, draft, manager.id, ctx.clock.now());
    await recordAudit(tx, ctx.clock, {
      action: "group.create",
      actor: by.audit,
      target: groupTarget(group),
      groupId: group.id,
      details: { name: group.name, managerId: manager.id },
    });
    return group;
  });
}

/**
 * Renames a group (archived or not: its name is the administration's, not its content).
 * @throws ForbiddenError ADMIN_REQUIRED; ValidationError GROUP_NAME_*; NotFoundError GROUP_NOT_FOUND
 */
export async function renameGroupAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly groupId: number; readonly name: string },
): Promise<Group> {
  return adminAct(ctx, by, tried("group.update", by, input.groupId), async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    const draft = checkGroupDraft({ name: input.name, summary: group.summary });
    const at = ctx.clock.now();
    await tx.groups.update(group.id, { ...draft, at });
    await recordAudit(tx, ctx.clock, {
      ...tried("group.update", by, group.id),
      target: groupTarget({ id: group.id, name: draft.name }),
      details: { before: { name: group.name }, after: { name: draft.name } },
    });
    return { ...group, name: draft.name, updatedAt: at };
  });
}

/**
 * Makes a joined member a manager, or not; the group keeps at least one manager, and an archived
 * group's members stay as they are.
 * @throws ForbiddenError ADMIN_REQUIRED, GROUP_ARCHIVED; ValidationError LAST_MANAGER; NotFoundError GROUP_NOT_FOUND, MEMBER_NOT_FOUND
 */
export async function setManagerAsAdmin(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly groupId: number; readonly memberId: number; readonly manager: boolean },
): Promise<Member> {
  const entry = tried("member.role", by, input.groupId, { memberId: input.memberId, manager: input.manager });
  return adminAct(ctx, by, entry, async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    requireNotArchived(group);
    const member = await tx.memberships.findMember(input.memberId);
    if (!member || member.groupId !== group.id || member.status !== "JOIN")
      throw new NotFoundError("MEMBER_NOT_FOUND", "The member does not exist in this group.");
    if (member.manager === input.manager) return member;
    if (!input.manager) requireKeepsAManager(member, await tx.memberships.countManagers(group.id));
    await tx.memberships.update(member.id, { manager: input.manager, at: ctx.clock.now() });
    await recordAudit(tx, ctx.clock, {
      ...entry,
      target: membershipTarget(member),
      details: { manager: { before: member.manager, after: input.manager } },
    });
    return { ...member, manager: input.manager };
  });
}

/**
 * Archives a group (read-only: writes to its content and members are refused, reads go on) or
 * restores it. Doing what is already so changes nothing and writes no row.
 * @throws ForbiddenError ADMIN_REQUIRED; NotFoundError GROUP_NOT_FOUND
 * @returns the group as it is now, and whether anything changed
 */
export async function setGroupArchived(
  ctx: ServiceContext,
  by: Administrator,
  input: { readonly groupId: number; readonly archived: boolean },
): Promise<{ group: Group; changed: boolean }> {
  const action = input.archived ? "group.archive" : "group.restore";
  return adminAct(ctx, by, tried(action, by, input.groupId), async (tx) => {
    const group = await requireGroup(tx, input.groupId);
    if ((group.archivedAt !== null) === input.archived) return { group, changed: false };
    const archivedAt = input.archived ? ctx.clock.now() : null;
    await tx.groupAdmin.setArchived(group.id, archivedAt);
    await recordAudit(tx, ctx.clock, { ...tried(action, by, group.id), target: groupTarget(group) });
    return { group: { ...group, archivedAt }, changed: true };
  });
}

/** The row an act on a group leaves: done with its target, or refused as tried. */
function tried(
  action: AuditAction,
  by: Administrator,
  groupId: number,
  details?: Readonly<Record<string, unknown>>,
): AuditEntry {
  return { action, actor: by.audit, groupId, ...(details === undefined ? {} : { details }) };
}

/** Runs an administrator's act on a group in one transaction, the role checked there; refusals logged. */
export async function adminAct<T>(
  ctx: ServiceContext,
  by: Administrator,
  entry: AuditEntry,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  return auditRefusals(ctx, entry, () =>
    ctx.store.transaction(async (tx) => {
      await requireAdministrator(tx, by);
      return work(tx);
    }),
  );
}
