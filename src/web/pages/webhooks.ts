// Outgoing webhooks on the web (issue #34): a group's, for its managers, under `/g/:group/webhooks`,
// and a person's own (their notifications, their chat rooms) under `/account/webhooks`. A list with
// the add form, the secret shown once, and each webhook's page: its delivery log with a redeliver
// button, enable or disable, remove. Every form goes through services/webhook/webhooks.ts. The
// person's own page also lists their WebSub subscriptions, each with a Cancel button.
import type { FastifyInstance } from "fastify";
import { formatPair } from "../../domain/item-id.js";
import { GROUP_WEBHOOK_EVENTS, PERSONAL_WEBHOOK_EVENTS, WEBHOOK_LIMITS } from "../../domain/webhook.js";
import {
  type WebhookCaller,
  addWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
  setWebhookEnabled,
} from "../../services/webhook/webhooks.js";
import { cancelOwnSubscription, listOwnSubscriptions } from "../../services/websub/subscriptions.js";
import { type PageRequest, type WebContext, pageNotFound, pathPair, registerPage } from "../page.js";

/** Where a list of webhooks lives: a group's or the person's own. */
interface Place {
  readonly groupId: number | null;
  readonly path: string;
}

function placeOf(page: PageRequest, grouped: boolean): Place {
  if (!grouped) return { groupId: null, path: "/account/webhooks" };
  const groupId = pathPair(page, "group");
  return { groupId, path: `/g/${formatPair(groupId)}/webhooks` };
}

/** The `:id` of a webhook's page. @throws NotFoundError PAGE_NOT_FOUND */
function idOf(text: string | undefined | null): number {
  if (text === undefined || text === null || !/^[1-9][0-9]{0,14}$/.test(text)) throw pageNotFound();
  return Number(text);
}

function callerOf(page: PageRequest): WebhookCaller {
  return { actor: page.actor };
}

/** `/g/:group/webhooks...` and `/account/webhooks...`. */
export function registerWebhookPages(app: FastifyInstance, web: WebContext): void {
  for (const grouped of [true, false]) {
    const root = grouped ? "/g/:group/webhooks" : "/account/webhooks";
    registerPage(app, web, root, {
      async GET(page) {
        const place = placeOf(page, grouped);
        const webhooks = await listWebhooks(web, callerOf(page), { groupId: place.groupId });
        // A person's own page also lists their WebSub subscriptions (docs/api.md "WebSub"), to cancel.
        const websub = grouped ? [] : await listOwnSubscriptions(web, page.actor.user.id);
        return page.render("webhooks", {
          title: page.chrome.t("webhooks.title"),
          grouped,
          webhooks: webhooks.map((hook) => ({ ...hook, href: page.chrome.u(`${place.path}/${hook.id}`) })),
          events: grouped ? GROUP_WEBHOOK_EVENTS : PERSONAL_WEBHOOK_EVENTS,
          addAction: page.chrome.u(place.path),
          urlMax: WEBHOOK_LIMITS.urlMaxChars,
          backHref: page.chrome.u(grouped ? `/g/${formatPair(place.groupId ?? 0)}/members` : "/account"),
          websub: websub.map((subscription) => ({
            ...subscription,
            action: page.chrome.u(`/account/websub/${subscription.id}`),
          })),
        });
      },
      async POST(page) {
        const place = placeOf(page, grouped);
        const { webhook, secret } = await addWebhook(web, callerOf(page), {
          groupId: place.groupId,
          url: page.form.get("url") ?? "",
          events: page.form.getAll("events"),
        });
        page.reply.header("cache-control", "no-store");
        return page.render("webhook-secret", {
          title: page.chrome.t("webhooks.created"),
          webhook,
          secret,
          href: page.chrome.u(`${place.path}/${webhook.id}`),
        });
      },
    });
    if (!grouped)
      registerPage(app, web, "/account/websub/:id", {
        async POST(page) {
          if (page.form.get("act") !== "cancel") throw pageNotFound();
          await cancelOwnSubscription(web, page.actor.user.id, idOf(page.params.id));
          return page.redirect("/account/webhooks");
        },
      });
    registerPage(app, web, `${root}/:id`, {
      async GET(page) {
        const place = placeOf(page, grouped);
        const id = idOf(page.params.id);
        const { webhook, deliveries } = await listDeliveries(web, callerOf(page), id);
        if (webhook.groupId !== place.groupId) throw pageNotFound();
        const action = page.chrome.u(`${place.path}/${id}`);
        return page.render("webhook", {
          title: `${page.chrome.t("webhooks.title")}: ${webhook.url}`,
          webhook,
          deliveries,
          action,
          listHref: page.chrome.u(place.path),
        });
      },
      async POST(page) {
        const place = placeOf(page, grouped);
        const id = idOf(page.params.id);
        const caller = callerOf(page);
        const act = page.form.get("act");
        if (act === "remove") {
          await removeWebhook(web, caller, id);
          return page.redirect(place.path);
        }
        if (act === "enable" || act === "disable")
          await setWebhookEnabled(web, caller, { id, enabled: act === "enable" });
        else if (act === "redeliver")
          await redeliver(web, caller, { webhookId: id, deliveryId: idOf(page.form.get("delivery")) });
        else throw pageNotFound();
        return page.redirect(`${place.path}/${id}`);
      },
    });
  }
}
