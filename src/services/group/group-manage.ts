// Groups people run themselves in the web interface: any signed-in person creates one and becomes
// its manager; managers rename and describe it; a member leaves it.
import type { Actor } from "../../domain/access.js";
import { actorOf, groupTarget, membershipTarget } from "../../domain/audit.js";
import type { Group } from "../../domain/group.js";
import { checkGroupDraft, requireMayLeave } from "../../domain/group-rules.js";
import type { Tx } from "../../store/store.js";
import { insertJoinedMember } from "../member/member-write.js";
import type { ServiceContext } from "../context.js";
import { recordAudit } from "../audit/audit-log.js";
import { auditRefusals } from "../audit/refusal.js";
import { requireGroupManager, requireGroupMember } from "./group-access.js";
import { endMembership } from "../member/membership-events.js";

/**
 * Creates a group with the caller as its first (and only) manager.
 * @throws ValidationError GROUP_NAME_REQUIRED, GROUP_NAME_TOO_LONG, GROUP_SUMMARY_TOO_LONG
 */
export async function createGroup(
  ctx: ServiceContext,
  actor: Actor,
  input: { name: string; summary: string },
): Promise<Group> {
  const draft = checkGroupDraft(input);
  return ctx.store.transaction(async (tx) => {
    const group = await insertGroup(tx, draft, actor.user.id, ctx.clock.now());
    await recordAudit(tx, ctx.clock, {
      action: "group.create",
      actor: actorOf(actor),
      target: groupTarget(group),
      groupId: group.id,
      details: { name: group.name, summary: group.summary },
    });
    return group;
  });
}

/**
 * Inserts a group inside the caller's transaction (its draft checked by the caller), with its
 * first manager when there is one: the one insert of groups, for the web and `kairan group add`.
 */
export async function insertGroup(
  tx: Tx,
  draft: { name: string; summary: string },
  managerId: number | undefined,
  at: number,
): Promise<Group> {
  const group = await tx.groups.insert({ name: draft.name, summary: draft.summary, createdAt: at });
  if (managerId !== undefined)
    await insertJoinedMember(tx, { groupId: group.id, userId: managerId, manager: true }, at);
  return group;
}

/**
 * A group as its manager's edit form shows it.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function readGroupForManager(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number },
): Promise<Group> {
  return ctx.store.read((tx) => requireGroupManager(tx, actor, input.groupId));
}

/**
 * Renames and describes a group, and says whether its members manage its folders (its managers only).
 * @throws ValidationError GROUP_NAME_*, GROUP_SUMMARY_TOO_LONG; NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function updateGroup(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; name: string; summary: string; membersManageFolders?: boolean },
): Promise<Group> {
  const draft = checkGroupDraft(input);
  const tried = { action: "group.update", actor: actorOf(actor), groupId: input.groupId } as const;
  return auditRefusals(ctx, tried, () =>
    ctx.store.transaction(async (tx) => {
      const group = await requireGroupManager(tx, actor, input.groupId);
      const at = ctx.clock.now();
      await tx.groups.update(group.id, { ...draft, at });
      const membersManageFolders = input.membersManageFolders ?? group.membersManageFolders;
      const policyChanged = membersManageFolders !== group.membersManageFolders;
      if (policyChanged) await tx.groups.setMembersManageFolders(group.id, membersManageFolders);
      // The folder setting is named in the audit row only when it changed.
      const policy = (value: boolean) => (policyChanged ? { membersManageFolders: value } : {});
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: groupTarget({ ...group, ...draft }),
        details: {
          before: { name: group.name, summary: group.summary, ...policy(group.membersManageFolders) },
          after: { name: draft.name, summary: draft.summary, ...policy(membersManageFolders) },
        },
      });
      return { ...group, ...draft, membersManageFolders, updatedAt: at };
    }),
  );
}

/**
 * The caller leaves the group; the last manager may not while other members remain.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED; ValidationError LAST_MANAGER
 */
export async function leaveGroup(ctx: ServiceContext, actor: Actor, input: { groupId: number }): Promise<Group> {
  const tried = { action: "member.remove", actor: actorOf(actor), groupId: input.groupId } as const;
  return auditRefusals(ctx, { ...tried, details: { left: true } }, () =>
    ctx.store.transaction(async (tx) => {
      const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
      requireMayLeave(
        membership,
        await tx.memberships.countManagers(group.id),
        await tx.memberships.countMembers(group.id, "JOIN"),
      );
      await endMembership(tx, membership, ctx.clock.now());
      await recordAudit(tx, ctx.clock, {
        ...tried,
        target: membershipTarget({ id: membership.id, name: actor.user.name }),
        details: { left: true, userId: actor.user.id, manager: membership.manager },
      });
      return group;
    }),
  );
}
