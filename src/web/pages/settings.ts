// The settings page (`/settings`): the notify switch of each group, personal tokens (create,
// shown once; revoke), the applications the person authorized (revoke) and the calendar
// addresses (made or renewed, shown once; revoked).
import type { FastifyInstance } from "fastify";
import { formatPair, parsePair } from "../../domain/item-id.js";
import { renewCalendarSecret, revokeCalendarSecret } from "../../services/schedule/calendar-feed.js";
import {
  createPersonalToken,
  revokeAuthorizedApp,
  revokePersonalToken,
} from "../../services/account/personal-token.js";
import { readSettings, setMyNotify } from "../../services/account/settings.js";
import { registerMailSettingsForms } from "./mail-settings.js";
import { readMailSettings } from "../../services/mail-notify/mail-settings.js";
import { type PageRequest, type WebContext, pageNotFound, registerPage } from "../page.js";

/** `/settings` and its forms. */
export function registerSettingsPages(app: FastifyInstance, web: WebContext): void {
  registerPage(app, web, "/settings", {
    async GET(page) {
      const view = await readSettings(web, page.actor);
      const mail = await readMailSettings(web, page.actor);
      return page.render("settings", {
        mail,
        mailSaved: page.query.mail === "saved",
        email: page.actor.user.email,
        zone: page.chrome.timeZone,
        title: page.chrome.t("settings.title"),
        section: "settings",
        saved: page.query.saved === "1",
        groups: view.groups,
        personal: view.credentials.personal,
        authorized: view.credentials.authorized,
        apps: view.credentials.apps,
        calendarSince: view.calendarSince,
      });
    },
  });
  registerPage(app, web, "/settings/notify", {
    async POST(page) {
      const groupId = parsePair(page.form.get("group") ?? "");
      if (groupId === undefined) throw pageNotFound();
      await setMyNotify(web, page.actor, { groupId, notify: page.form.get("notify") === "true" });
      return page.redirect("/settings?saved=1#notify");
    },
  });
  registerMailSettingsForms(app, web);
  registerPage(app, web, "/settings/tokens", {
    async POST(page) {
      const issued = await createPersonalToken(web, page.actor, {
        appId: numberField(page, "app"),
        label: page.form.get("label") ?? "",
      });
      // Shown once, in the answer to the POST itself: nothing stores it, no later page can show it again.
      return page.render("token-created", {
        title: page.chrome.t("settings.tokens"),
        section: "settings",
        issued,
        label: page.form.get("label") ?? "",
      });
    },
  });
  registerPage(app, web, "/settings/tokens/:id/revoke", {
    async POST(page) {
      await revokePersonalToken(web, page.actor, { tokenId: numberParam(page) });
      return page.redirect("/settings#tokens");
    },
  });
  registerPage(app, web, "/settings/calendar", {
    async POST(page) {
      const secret = await renewCalendarSecret(web, page.actor);
      const { groups } = await readSettings(web, page.actor);
      const base = `${web.baseUrl()}/ical/${secret}`;
      // Shown once, like a personal token: only the secret's hash is kept.
      return page.render("calendar-created", {
        title: page.chrome.t("settings.calendar"),
        section: "settings",
        mine: `${base}/me.ics`,
        groups: groups.map(({ group }) => ({ name: group.name, address: `${base}/group/${formatPair(group.id)}.ics` })),
      });
    },
  });
  registerPage(app, web, "/settings/calendar/revoke", {
    async POST(page) {
      await revokeCalendarSecret(web, page.actor);
      return page.redirect("/settings#calendar");
    },
  });
  registerPage(app, web, "/settings/apps/:id/revoke", {
    async POST(page) {
      await revokeAuthorizedApp(web, page.actor, { appId: numberParam(page) });
      return page.redirect("/settings#apps");
    },
  });
}

const ID = /^[1-9][0-9]{0,11}$/;

function numberParam(page: PageRequest): number {
  const text = page.params.id ?? "";
  if (!ID.test(text)) throw pageNotFound();
  return Number(text);
}

function numberField(page: PageRequest, name: string): number {
  const text = page.form.get(name) ?? "";
  return ID.test(text) ? Number(text) : 0;
}
