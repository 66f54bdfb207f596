// What a reader has not seen yet: the header's counts (unconfirmed notifications, unread chat
// messages) and the "new" marks of a group's lists. Reads only; the writes are in visits.ts.
import type { Actor } from "../../domain/access.js";
import type { ContentKind } from "../../domain/kinds.js";
import { type SeenableItem, type UnreadMark, isNewItem, seenSince } from "../../domain/unread.js";
import type { UnreadCounts } from "../../store/queries/notification-counts.js";
import type { ReadWhat } from "../../store/queries/live-events.js";
import type { Tx } from "../../store/store.js";
import type { ServiceContext } from "../context.js";

export type { UnreadCounts };

/** The caller's unconfirmed notifications (as the API lists them) and unread chat messages. */
export async function readUnreadCounts(ctx: ServiceContext, actor: Actor): Promise<UnreadCounts> {
  return ctx.store.read((tx) => tx.notificationCounts.unread(actor.user.id));
}

/**
 * The marks of a page of one group's items for the caller: new, or how many comments are new.
 * The caller's membership is checked by the list's own read; this reads only the caller's rows
 * and the counts of these items' comments (two queries, whatever the page's size).
 */
export async function readUnreadMarks(
  ctx: ServiceContext,
  actor: Actor,
  input: { groupId: number; kind: ContentKind; items: readonly SeenableItem[] },
): Promise<Map<number, UnreadMark>> {
  const userId = actor.user.id;
  return ctx.store.read(async (tx) => {
    const ids = input.items.map((item) => item.id);
    const seen = await tx.itemVisits.seen(userId, input.groupId, input.kind, ids);
    const since = new Map<number, number | undefined>();
    const asked = new Map<number, number>();
    for (const item of input.items) {
      const from = seenSince(item, userId, seen.visits.get(item.id), seen.groupReadAt);
      since.set(item.id, from);
      if (!isNewItem(item, from) && from !== undefined) asked.set(item.id, from);
    }
    const counts = await tx.itemVisits.commentsAfter(userId, input.kind, asked);
    return new Map(
      input.items.map((item) => {
        const isNew = isNewItem(item, since.get(item.id));
        return [item.id, { isNew, newComments: isNew ? 0 : (counts.get(item.id) ?? 0) }];
      }),
    );
  });
}

/**
 * Logs that the user read something, in the transaction that confirmed it: their own streams (every
 * tab, every browser) count again. One row, as every live event (docs/architecture.md "Live updates").
 */
export async function logRead(tx: Tx, userId: number, what: ReadWhat, at: number): Promise<void> {
  await tx.liveEvents.append({ kind: "read", userId, what, at });
}
