// The re-check at send time: a webhook tells its owner only what they may still read, however long
// ago the change was queued (design: "everything that lives past one request re-checks its
// owner's access when it delivers").
import type { WebhookDeliveryRow, WebhookRow } from "../../store/queries/webhooks.js";
import type { Tx } from "../../store/store.js";

/**
 * Why the delivery must not be sent (recorded in its log), or undefined when it may: the owner's
 * account gone or disabled, the owner no longer a member of the item's group, no longer in the
 * chat room. The operator's webhooks (no owner) need only their group.
 */
export async function ownerMayRead(
  tx: Tx,
  hook: WebhookRow,
  delivery: WebhookDeliveryRow,
): Promise<string | undefined> {
  const ownerId = hook.owner_id;
  if (ownerId === null)
    return delivery.group_id !== null && (await tx.groups.findById(delivery.group_id)) !== undefined
      ? undefined
      : "the group is gone";
  if ((await tx.users.isDisabled(ownerId)) !== false) return "the owner's account is disabled or gone";
  if (delivery.group_id !== null && (await tx.memberships.findJoined(delivery.group_id, ownerId)) === undefined)
    return "the owner is no longer a member of the group";
  if (delivery.item_kind === "CHAT" && (await tx.chat.room(delivery.item_id, ownerId)) === undefined)
    return "the owner is no longer in the chat room";
  return undefined;
}
