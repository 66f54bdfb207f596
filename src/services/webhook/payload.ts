// What a delivery says (docs/api.md "Webhooks"): `{type, timestamp, data}` as the Standard
// Webhooks specification suggests, `data` naming the item as the API writes its id, its links,
// the actor, the change and the new text. Built at the first attempt from the item as it is then,
// read as the webhook's owner may read it, and sent unchanged on every retry and redelivery.
import type { ContentKind } from "../../domain/kinds.js";
import {
  type ContentRef,
  formatChatMessageId,
  formatCommentId,
  formatContentId,
  formatGroupId,
  formatPair,
} from "../../domain/item-id.js";
import { commentLinks, contentLinks, groupLinks } from "../../domain/item-links.js";
import type { WebhookDeliveryRow, WebhookRow } from "../../store/queries/webhooks.js";
import type { Tx } from "../../store/store.js";
import { chatMessageFor } from "../chat/chat-live.js";

/** The body of a delivery, before serialisation. */
export interface WebhookPayload {
  readonly type: string;
  readonly timestamp: string;
  readonly data: {
    readonly id: string;
    readonly event: string;
    readonly change: string;
    readonly group: { readonly id: string; readonly name: string } | null;
    readonly parent?: string;
    readonly links: { readonly alternate: string; readonly mobile?: string };
    readonly actor: { readonly id: string; readonly name: string } | null;
    readonly title: string | null;
    readonly text: string | null;
  };
}

/** `notification:topic.created` -> the type `notification`, the event `topic.created`. */
function splitEvent(stored: string): { type: string; event: string } {
  const [type, inner] = stored.split(":", 2);
  return inner === undefined ? { type: stored, event: stored } : { type: type ?? stored, event: inner };
}

/** The change word of an event: `topic.created` -> `created`. */
function changeOf(event: string): string {
  return event.split(".")[1] ?? event;
}

/**
 * The delivery's body, or undefined when what it tells of can no longer be read by the webhook's
 * owner (a chat room they left): then it is not sent.
 */
export async function buildPayload(
  tx: Tx,
  baseUrl: string,
  hook: WebhookRow,
  delivery: WebhookDeliveryRow,
): Promise<WebhookPayload | undefined> {
  const { type, event } = splitEvent(delivery.event);
  const actorUser = delivery.actor_id === null ? undefined : await tx.users.findById(delivery.actor_id);
  const actor = actorUser === undefined ? null : { id: formatPair(actorUser.id), name: actorUser.name };
  const head = { type, timestamp: new Date(delivery.changed_at).toISOString() };
  const change = changeOf(event);
  if (delivery.item_kind === "CHAT") {
    if (hook.owner_id === null || delivery.number === null) return undefined;
    const message = await chatMessageFor(tx, hook.owner_id, delivery.item_id, delivery.number);
    if (message === undefined) return undefined;
    const id = formatChatMessageId(hook.owner_id, delivery.item_id, delivery.number);
    const links = { alternate: `${baseUrl}/mpChat/view?chatRoomId=1%23${delivery.item_id}` };
    return { ...head, data: { id, event, change, group: null, links, actor, title: null, text: message.body } };
  }
  if (delivery.group_id === null) return undefined;
  const text = await tx.webhooks.itemText(delivery.id);
  const group = await tx.groups.findById(delivery.group_id);
  if (group === undefined) return undefined;
  const groupPart = { id: formatGroupId(group.id), name: group.name };
  if (delivery.item_kind === "GROUP") {
    const links = { alternate: `${groupLinks(baseUrl, group.id).alternate}/members` };
    return {
      ...head,
      data: { id: groupPart.id, event, change, group: groupPart, links, actor, title: group.name, text: null },
    };
  }
  const ref: ContentRef = { kind: delivery.item_kind as ContentKind, groupId: group.id, id: delivery.item_id };
  const title = text?.title ?? null;
  if (event.startsWith("comment.") || (event === "like.added" && delivery.number !== null)) {
    const number = delivery.number ?? 0;
    const comment = text === undefined ? undefined : await tx.comments.find(ref, number);
    return {
      ...head,
      data: {
        id: formatCommentId(ref, number),
        event,
        change,
        group: groupPart,
        parent: formatContentId(ref),
        links: commentLinks(baseUrl, ref, number),
        actor,
        title,
        text: comment?.body ?? null,
      },
    };
  }
  const links = contentLinks(baseUrl, ref);
  return {
    ...head,
    data: { id: formatContentId(ref), event, change, group: groupPart, links, actor, title, text: text?.body ?? null },
  };
}
