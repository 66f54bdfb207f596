// `kairan webhook add|list|remove|deliveries`: the operator's view of outgoing webhooks, through
// the same services as the group's webhook pages. The secret is printed once, by `add`.
import { formatPair } from "../domain/item-id.js";
import {
  type DeliveryView,
  WEBHOOK_OPERATOR,
  type WebhookView,
  addWebhook,
  listDeliveries,
  listWebhooks,
  removeWebhook,
} from "../services/webhook/webhooks.js";
import { type CommandGroup, type Values, commandGroup, groupOption, optional, required } from "./admin.js";
import { UsageError } from "./options.js";

/** The one webhook id argument. @throws UsageError */
function webhookArgument(positionals: readonly string[]): number {
  const text = positionals[0] ?? "";
  const id = /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : undefined;
  if (positionals.length !== 1 || id === undefined)
    throw new UsageError(`give exactly one webhook id such as 3 (got "${text.slice(0, 40)}")`);
  return id;
}

/** A webhook as the command prints it. */
function shown(webhook: WebhookView): Record<string, unknown> {
  return {
    id: webhook.id,
    group: webhook.groupId === null ? null : formatPair(webhook.groupId),
    owner: webhook.ownerId === null ? null : formatPair(webhook.ownerId),
    url: webhook.url,
    events: webhook.events,
    created: new Date(webhook.createdAt).toISOString(),
    disabled: webhook.disabledAt === null ? null : new Date(webhook.disabledAt).toISOString(),
    failures: webhook.failures,
  };
}

function shownDelivery(delivery: DeliveryView): Record<string, unknown> {
  const time = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  return {
    id: delivery.id,
    webhookId: delivery.messageId,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts,
    created: time(delivery.createdAt),
    lastAttempt: time(delivery.lastAttemptAt),
    nextAttempt: delivery.status === "queued" ? time(delivery.nextAttemptAt) : null,
    responseStatus: delivery.responseStatus,
    response: delivery.responseExcerpt,
    error: delivery.error,
  };
}

/** `kairan webhook ...`. */
export const WEBHOOK_COMMAND: CommandGroup = commandGroup("webhook", "register, list and remove outgoing webhooks", {
  add: {
    summary: "register a webhook of a group; prints its id and its secret (shown this once)",
    usage: "--group ID --url URL [--events LIST]",
    options: { group: { type: "string" }, url: { type: "string" }, events: { type: "string" } },
    async run(values: Values, _positionals, context) {
      const { webhook, secret } = await addWebhook(context, WEBHOOK_OPERATOR, {
        groupId: groupOption(values),
        url: required(values, "url"),
        events: optional(values, "events"),
      });
      return { id: webhook.id, secret, ...shown(webhook) };
    },
  },
  list: {
    summary: "list the webhooks of a group (--group), or of the whole site",
    usage: "[--group ID]",
    options: { group: { type: "string" } },
    async run(values: Values, _positionals, context) {
      const groupId = optional(values, "group") === undefined ? null : groupOption(values);
      return (await listWebhooks(context, WEBHOOK_OPERATOR, { groupId })).map(shown);
    },
  },
  remove: {
    summary: "remove a webhook and its delivery log",
    usage: "ID",
    positionals: 1,
    options: {},
    async run(_values: Values, positionals, context) {
      const webhook = await removeWebhook(context, WEBHOOK_OPERATOR, webhookArgument(positionals));
      return { removed: "webhook", id: webhook.id, url: webhook.url };
    },
  },
  deliveries: {
    summary: "list a webhook's latest deliveries, newest first (status, time, answer)",
    usage: "ID",
    positionals: 1,
    options: {},
    async run(_values: Values, positionals, context) {
      const { deliveries } = await listDeliveries(context, WEBHOOK_OPERATOR, webhookArgument(positionals));
      return deliveries.map(shownDelivery);
    },
  },
});
