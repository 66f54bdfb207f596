// The writes of what a reader has seen: a visit of an item's page, "mark all read" of a group. One
// row per reader per item (or group), upserted by the reader's own request: a post to a group
// writes nothing per member for them.
import type { Actor } from "../../domain/access.js";
import { groupNotFound, requireMembership } from "../../domain/group.js";
import { type ContentRef, formatPair } from "../../domain/item-id.js";
import type { ServiceContext } from "../context.js";

/** Records that the caller opened the item's page now (the page's read checked their access). */
export async function recordVisit(ctx: ServiceContext, actor: Actor, item: ContentRef): Promise<void> {
  await ctx.store.transaction((tx) => tx.itemVisits.visit(actor.user.id, item, ctx.clock.now()));
}

/**
 * Everything in the group so far counts as seen by the caller ("mark all read"). An archived
 * group may be marked too: this is the reader's state, not the group's content.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED
 */
export async function markGroupRead(ctx: ServiceContext, actor: Actor, groupId: number): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    if (!(await tx.groups.findById(groupId))) throw groupNotFound(formatPair(groupId));
    requireMembership(await tx.memberships.findJoined(groupId, actor.user.id));
    await tx.itemVisits.readAll(actor.user.id, groupId, ctx.clock.now());
  });
}
