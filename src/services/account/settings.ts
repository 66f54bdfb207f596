// The settings page: the caller's groups with their notify switch, and their credentials.
import type { Actor } from "../../domain/access.js";
import type { Group, Membership } from "../../domain/group.js";
import { calendarSecretOf } from "../schedule/calendar-feed.js";
import { requireGroupMember } from "../group/group-access.js";
import { type CredentialsView, listMyCredentials } from "./personal-token.js";
import type { ServiceContext } from "../context.js";

/** A joined group with the caller's membership in it. */
export interface MyGroup {
  readonly group: Group;
  readonly membership: Membership;
}

/** Everything the settings page shows. */
export interface SettingsView {
  readonly groups: readonly MyGroup[];
  readonly credentials: CredentialsView;
  /** When the caller's calendar addresses were made; undefined when they have none. */
  readonly calendarSince: number | undefined;
}

/** The caller's groups (by name) with their notify switch, tokens, authorized applications and calendar addresses. */
export async function readSettings(ctx: ServiceContext, actor: Actor): Promise<SettingsView> {
  const groups = await ctx.store.read(async (tx) => {
    const out: MyGroup[] = [];
    for (const membership of await tx.memberships.listJoinedOfUser(actor.user.id)) {
      const group = await tx.groups.findById(membership.groupId);
      if (group) out.push({ group, membership });
    }
    return out.sort((a, b) => a.group.name.localeCompare(b.group.name) || a.group.id - b.group.id);
  });
  return {
    groups,
    credentials: await listMyCredentials(ctx, actor),
    calendarSince: await calendarSecretOf(ctx, actor),
  };
}

/**
 * Turns the caller's notifications of one group on or off (docs/api.md "Notifications": "do not notify").
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function setMyNotify(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; notify: boolean },
): Promise<MyGroup> {
  return ctx.store.transaction(async (tx) => {
    const { group, membership } = await requireGroupMember(tx, actor, input.groupId);
    await tx.memberships.update(membership.id, { notify: input.notify, at: ctx.clock.now() });
    return { group, membership: { ...membership, notify: input.notify } };
  });
}
