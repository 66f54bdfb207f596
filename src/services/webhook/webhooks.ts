// Outgoing webhooks (issue #34): the one place that registers, lists, enables and removes them and
// reads and redelivers their deliveries, for the pages and `kairan webhook` alike. A group's
// webhooks are its managers' (or the operator's); a person's own webhooks are theirs alone.
import type { Actor } from "../../domain/access.js";
import { NotFoundError, ValidationError } from "../../domain/errors.js";
import {
  WEBHOOK_LIMITS,
  type WebhookDeliveryStatus,
  type WebhookEvent,
  type WebhookScope,
  checkWebhookUrl,
  eventMask,
  eventsOfMask,
  parseWebhookEvents,
} from "../../domain/webhook.js";
import { seal } from "../../auth/secret-box.js";
import type { WebhookDeliveryRow, WebhookRow } from "../../store/queries/webhooks.js";
import type { Tx } from "../../store/store.js";
import { requireGroup } from "../admin-lookup.js";
import type { ServiceContext } from "../context.js";
import { requireGroupManager } from "../group/group-access.js";
import { siteKey } from "../site-key.js";
import { newWebhookSecret } from "./sign.js";

/** Who acts: a signed-in person, or the operator at the command line. */
export type WebhookCaller = { readonly actor: Actor } | { readonly operator: true };

/** The operator at the command line. */
export const WEBHOOK_OPERATOR: WebhookCaller = Object.freeze({ operator: true as const });

/** A webhook as pages and the command line show it (never its secret). */
export interface WebhookView {
  readonly id: number;
  readonly groupId: number | null;
  readonly ownerId: number | null;
  readonly url: string;
  readonly events: readonly WebhookEvent[];
  readonly createdAt: number;
  readonly disabledAt: number | null;
  readonly failures: number;
}

/** One line of a webhook's delivery log. */
export interface DeliveryView {
  readonly id: number;
  readonly messageId: string;
  readonly event: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly createdAt: number;
  readonly nextAttemptAt: number;
  readonly lastAttemptAt: number | null;
  readonly responseStatus: number | null;
  readonly responseExcerpt: string | null;
  readonly error: string | null;
}

/** Delivery log lines shown at once. */
export const DELIVERY_LOG_LINES = 50;

/** What the seal of a webhook's secret is bound to: a sealed secret copied to another row does not open. */
export function secretOwner(webhookId: number): string {
  return `webhook:${webhookId}`;
}

function viewOf(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    groupId: row.group_id,
    ownerId: row.owner_id,
    url: row.url,
    events: eventsOfMask(row.events),
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    failures: row.failures,
  };
}

function deliveryViewOf(row: WebhookDeliveryRow): DeliveryView {
  return {
    id: row.id,
    messageId: row.message_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.created_at,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    responseStatus: row.response_status,
    responseExcerpt: row.response_excerpt,
    error: row.last_error,
  };
}

/** Asserts the caller may manage webhooks of `scope`. @throws NotFoundError, ForbiddenError (requireGroupManager) */
async function requireScope(tx: Tx, caller: WebhookCaller, groupId: number | null): Promise<void> {
  if ("operator" in caller) {
    if (groupId === null) throw new ValidationError("WEBHOOK_GROUP_REQUIRED", "Give the group of the webhook.");
    await requireGroup(tx, groupId);
    return;
  }
  if (groupId !== null) await requireGroupManager(tx, caller.actor, groupId);
}

function notFound(): NotFoundError {
  return new NotFoundError("WEBHOOK_NOT_FOUND", "The webhook does not exist.");
}

/**
 * The webhook `id`, when the caller may manage it: a group's to its managers and the operator, a
 * person's own to that person (anyone else is told it does not exist).
 * @throws NotFoundError WEBHOOK_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
async function requireWebhook(tx: Tx, caller: WebhookCaller, id: number): Promise<WebhookRow> {
  const row = await tx.webhooks.find(id);
  if (row === undefined) throw notFound();
  if (row.group_id !== null) await requireScope(tx, caller, row.group_id);
  else if ("operator" in caller ? false : row.owner_id !== caller.actor.user.id) throw notFound();
  return row;
}

/**
 * Registers a webhook of the group `groupId`, or (null) the caller's own; returns it with its
 * secret, which is shown this once.
 * @throws ValidationError WEBHOOK_URL_INVALID, WEBHOOK_URL_TOO_LONG, WEBHOOK_EVENT_INVALID, WEBHOOK_LIMIT_REACHED
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED, GROUP_ARCHIVED
 */
export async function addWebhook(
  ctx: ServiceContext,
  caller: WebhookCaller,
  input: { readonly groupId: number | null; readonly url: string; readonly events?: string | readonly string[] },
): Promise<{ webhook: WebhookView; secret: string }> {
  const scope: WebhookScope = input.groupId === null ? { kind: "personal" } : { kind: "group", groupId: input.groupId };
  const url = checkWebhookUrl(input.url);
  const events = parseWebhookEvents(input.events, scope);
  const key = await siteKey(ctx, "webhook-secret");
  return ctx.store.transaction(async (tx) => {
    await requireScope(tx, caller, input.groupId);
    const ownerId = "operator" in caller ? null : caller.actor.user.id;
    const existing = await tx.webhooks.list(
      input.groupId === null ? { ownerId: ownerId ?? 0 } : { groupId: input.groupId },
    );
    if (existing.length >= WEBHOOK_LIMITS.perOwnerMax)
      throw new ValidationError(
        "WEBHOOK_LIMIT_REACHED",
        `At most ${WEBHOOK_LIMITS.perOwnerMax} webhooks are allowed here; remove one first.`,
      );
    const at = ctx.clock.now();
    const secret = newWebhookSecret();
    const id = await tx.webhooks.create({
      groupId: input.groupId,
      ownerId,
      url,
      secret: "",
      events: eventMask(events),
      at,
    });
    await tx.webhooks.setSecret(id, seal(key, secretOwner(id), secret));
    const row = await tx.webhooks.find(id);
    if (row === undefined) throw notFound();
    return { webhook: viewOf(row), secret };
  });
}

/**
 * The webhooks of a group (its managers, the operator), or the caller's own (groupId null); the
 * operator's null lists every webhook of the site.
 * @throws NotFoundError GROUP_NOT_FOUND; ForbiddenError GROUP_NOT_JOINED, MANAGER_REQUIRED
 */
export async function listWebhooks(
  ctx: ServiceContext,
  caller: WebhookCaller,
  input: { readonly groupId: number | null },
): Promise<WebhookView[]> {
  return ctx.store.read(async (tx) => {
    if (input.groupId === null)
      return (
        "operator" in caller ? await tx.webhooks.all() : await tx.webhooks.list({ ownerId: caller.actor.user.id })
      ).map(viewOf);
    await requireScope(tx, caller, input.groupId);
    return (await tx.webhooks.list({ groupId: input.groupId })).map(viewOf);
  });
}

/** One webhook. @throws NotFoundError WEBHOOK_NOT_FOUND; ForbiddenError as requireWebhook */
export async function getWebhook(ctx: ServiceContext, caller: WebhookCaller, id: number): Promise<WebhookView> {
  return ctx.store.read(async (tx) => viewOf(await requireWebhook(tx, caller, id)));
}

/** Removes a webhook with its log. @throws NotFoundError WEBHOOK_NOT_FOUND; ForbiddenError as requireWebhook */
export async function removeWebhook(ctx: ServiceContext, caller: WebhookCaller, id: number): Promise<WebhookView> {
  return ctx.store.transaction(async (tx) => {
    const row = await requireWebhook(tx, caller, id);
    await tx.webhooks.remove(row.id);
    return viewOf(row);
  });
}

/**
 * Enables a webhook again (its failures back to none) or disables it (its waiting deliveries fail).
 * @throws NotFoundError WEBHOOK_NOT_FOUND; ForbiddenError as requireWebhook
 */
export async function setWebhookEnabled(
  ctx: ServiceContext,
  caller: WebhookCaller,
  input: { readonly id: number; readonly enabled: boolean },
): Promise<WebhookView> {
  return ctx.store.transaction(async (tx) => {
    const row = await requireWebhook(tx, caller, input.id);
    await tx.webhooks.setDisabled(row.id, input.enabled ? null : ctx.clock.now());
    const after = await tx.webhooks.find(row.id);
    if (after === undefined) throw notFound();
    return viewOf(after);
  });
}

/** A webhook's latest deliveries, newest first. @throws NotFoundError WEBHOOK_NOT_FOUND; ForbiddenError as requireWebhook */
export async function listDeliveries(
  ctx: ServiceContext,
  caller: WebhookCaller,
  id: number,
): Promise<{ webhook: WebhookView; deliveries: DeliveryView[] }> {
  return ctx.store.read(async (tx) => {
    const row = await requireWebhook(tx, caller, id);
    const deliveries = await tx.webhooks.deliveries(row.id, DELIVERY_LOG_LINES);
    return { webhook: viewOf(row), deliveries: deliveries.map(deliveryViewOf) };
  });
}

/**
 * Queues a delivery again, its body and `webhook-id` unchanged, due at once (the owner's access is
 * checked again when it is sent).
 * @throws NotFoundError WEBHOOK_NOT_FOUND, WEBHOOK_DELIVERY_NOT_FOUND; ForbiddenError as requireWebhook
 * @throws ValidationError WEBHOOK_DISABLED
 */
export async function redeliver(
  ctx: ServiceContext,
  caller: WebhookCaller,
  input: { readonly webhookId: number; readonly deliveryId: number },
): Promise<DeliveryView> {
  return ctx.store.transaction(async (tx) => {
    const row = await requireWebhook(tx, caller, input.webhookId);
    if (row.disabled_at !== null)
      throw new ValidationError("WEBHOOK_DISABLED", "The webhook is disabled: enable it before redelivering.");
    const delivery = await tx.webhooks.findDelivery(input.deliveryId);
    if (delivery === undefined || delivery.webhook_id !== row.id)
      throw new NotFoundError("WEBHOOK_DELIVERY_NOT_FOUND", "The delivery does not exist.");
    const id = await tx.webhooks.redeliver(delivery, ctx.clock.now());
    const made = await tx.webhooks.findDelivery(id);
    if (made === undefined) throw notFound();
    return deliveryViewOf(made);
  });
}
