// `kairan websub list|remove`: the operator's view of WebSub subscriptions (docs/api.md "WebSub"),
// through the same services as the account page. A secret is never printed, only whether one signs.
import { formatPair } from "../domain/item-id.js";
import {
  type WebSubSubscriptionView,
  listAllSubscriptions,
  removeSubscription,
} from "../services/websub/subscriptions.js";
import { type CommandGroup, type Values, commandGroup } from "./admin.js";
import { UsageError } from "./options.js";

/** The one subscription id argument. @throws UsageError */
function idArgument(positionals: readonly string[]): number {
  const text = positionals[0] ?? "";
  const id = /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : undefined;
  if (positionals.length !== 1 || id === undefined)
    throw new UsageError(`give exactly one subscription id such as 3 (got "${text.slice(0, 40)}")`);
  return id;
}

function shown(subscription: WebSubSubscriptionView): Record<string, unknown> {
  return {
    id: subscription.id,
    user: formatPair(subscription.userId),
    topic: subscription.topic,
    callback: subscription.callback,
    signed: subscription.signed,
    created: new Date(subscription.createdAt).toISOString(),
    expires: new Date(subscription.expiresAt).toISOString(),
  };
}

/** `kairan websub ...`. */
export const WEBSUB_COMMAND: CommandGroup = commandGroup("websub", "list and remove WebSub subscriptions", {
  list: {
    summary: "list every WebSub subscription of the site, oldest first",
    usage: "",
    options: {},
    async run(_values: Values, _positionals, context) {
      return (await listAllSubscriptions(context)).map(shown);
    },
  },
  remove: {
    summary: "end a WebSub subscription: nothing more is sent to it",
    usage: "ID",
    positionals: 1,
    options: {},
    async run(_values: Values, positionals, context) {
      const id = idArgument(positionals);
      await removeSubscription(context, id);
      return { removed: "websub", id };
    },
  },
});
