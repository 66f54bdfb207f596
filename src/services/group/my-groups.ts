// The web's "my groups": the caller's groups, each with how many of its notifications wait.
import type { Actor } from "../../domain/access.js";
import type { Group } from "../../domain/group.js";
import type { PageWindow } from "../../store/page-window.js";
import type { ServiceContext } from "../context.js";

/**
 * A joined group and its unconfirmed notifications, mentions included (for a group set to "do not
 * notify", its mentions alone: they are delivered even there).
 */
export interface MyGroupWithCount {
  readonly group: Group;
  readonly unconfirmed: number;
}

/** The groups the caller has joined, newest first, with their unconfirmed notification counts. */
export async function listMyGroupsWithCounts(
  ctx: ServiceContext,
  actor: Actor,
  page: PageWindow,
): Promise<MyGroupWithCount[]> {
  return ctx.store.read(async (tx) => {
    const groups = await tx.groups.listJoined(actor.user.id, page);
    const counts = await tx.notificationCounts.unconfirmedByGroup(actor.user.id);
    const mentions = await tx.notificationCounts.unconfirmedMentionsByGroup(actor.user.id);
    // Notifications of a muted group are hidden from the list; its count says so too.
    const muted = new Set(await tx.notifications.mutedGroupIds(actor.user.id));
    return groups.map((group) => ({
      group,
      unconfirmed: (muted.has(group.id) ? 0 : (counts.get(group.id) ?? 0)) + (mentions.get(group.id) ?? 0),
    }));
  });
}
